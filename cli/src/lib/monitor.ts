import type WebSocket from 'ws';

/** One frame of /ws/monitor. */
export interface MonitorEvent {
  eventType: string;
  /** null for topic events and for the EVENTS_DROPPED marker. */
  queueName: string | null;
  detail: string;
  /** How many transitions the event stands for (more than 1 for a summary of a burst). */
  count: number;
  timestamp: string;
}

/** The broker refused the handshake; `status` is the HTTP status, as for any broker error. */
export class HandshakeRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HandshakeRefused';
  }
}

/** No connection at all (refused, DNS, TLS); status 0 like the SDK's ConnectionError. */
export class MonitorUnreachable extends Error {
  readonly status = 0;
  constructor(cause: unknown) {
    super('Cannot open the monitor WebSocket', { cause });
    this.name = 'MonitorUnreachable';
  }
}

export function monitorUrl(brokerUrl: string): string {
  const url = new URL(brokerUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/ws/monitor`;
  return url.toString();
}

/** Opens the monitor feed with the key in the handshake (a program may; browsers use tickets). */
export async function connectMonitor(brokerUrl: string, apiKey: string): Promise<WebSocket> {
  // Loaded here, not at the top: every command module is loaded at start-up, and only tail needs ws.
  const { default: WebSocketClient } = await import('ws');
  return new Promise((resolve, reject) => {
    const socket = new WebSocketClient(monitorUrl(brokerUrl), { headers: { Authorization: `Bearer ${apiKey}` } });
    socket.once('open', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('unexpected-response', (request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        request.destroy();
        reject(new HandshakeRefused(response.statusCode ?? 0, messageOf(body) ?? `The broker refused the monitor (${response.statusCode})`));
      });
    });
    socket.once('error', (error) => reject(new MonitorUnreachable(error)));
  });
}

function messageOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { message?: string }).message;
  } catch {
    return undefined;
  }
}

export interface Closed {
  code: number;
  reason: string;
}

/** Hands each event to `onEvent` until the socket closes or `signal` aborts (then it closes it). */
export function pump(socket: WebSocket, signal: AbortSignal, onEvent: (event: MonitorEvent) => void): Promise<Closed> {
  return new Promise((resolve) => {
    const stop = () => socket.close(1000, 'bye');
    signal.addEventListener('abort', stop, { once: true });
    socket.on('message', (data) => {
      try {
        onEvent(JSON.parse(data.toString()) as MonitorEvent);
      } catch {
        // A frame that is not an event is nothing to show.
      }
    });
    socket.on('error', () => undefined); // 'close' follows and says how it ended.
    socket.once('close', (code, reason) => {
      signal.removeEventListener('abort', stop);
      resolve({ code, reason: reason.toString() });
    });
  });
}
