import { backoffDelay, defaultRetryPolicy } from '../http/retryPolicy.js';
import type { PushEndpoint } from './types.js';

/** The part of the WebSocket API shared by browsers and the `ws` package. */
interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  close(): void;
}

type SocketFactory = (url: string, headers?: Record<string, string>) => SocketLike;

export interface PushChannelOptions {
  endpoint: PushEndpoint;
  queue: string;
  /** Called for every notification of this queue. */
  onNotify: () => void;
  onError: (error: unknown) => void;
}

// A variable, so browser bundlers do not try to include the Node-only package.
const NODE_WEBSOCKET_MODULE = 'ws';
const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * The `/ws/consume` notification channel. It only says "a message may be ready"; claiming still
 * goes through the HTTP consume path. Reconnects with backoff until closed.
 */
export class PushChannel {
  private socket: SocketLike | undefined;
  private closed = false;
  private failures = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private open = false;
  private settleFirstAttempt: () => void = () => undefined;
  /** Settles once the first connection attempt opened or failed. */
  readonly ready: Promise<void> = new Promise((resolve) => (this.settleFirstAttempt = resolve));

  constructor(private readonly options: PushChannelOptions) {
    void this.connect();
  }

  /** True while the socket is open, so notifications arrive and long polling can step back. */
  get connected(): boolean {
    return this.open;
  }

  close(): void {
    this.settleFirstAttempt();
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.socket?.close();
  }

  private async connect(): Promise<void> {
    try {
      const socket = await openSocket(this.options.endpoint, this.options.queue);
      if (this.closed) return socket.close();
      this.socket = socket;
      socket.onopen = () => {
        this.open = true;
        this.failures = 0;
        this.settleFirstAttempt();
        // Anything published while the socket was down was missed: look once.
        this.options.onNotify();
      };
      socket.onmessage = (event) => this.receive(event.data);
      socket.onerror = (event) => this.options.onError(socketError(event));
      socket.onclose = () => this.reconnect();
    } catch (error) {
      this.options.onError(error);
      this.reconnect();
    }
  }

  private receive(data: unknown): void {
    try {
      const text = typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer);
      const notification = JSON.parse(text) as { queue?: string };
      if (notification.queue === undefined || notification.queue === this.options.queue) this.options.onNotify();
    } catch {
      this.options.onNotify(); // unreadable, but a claim attempt costs little
    }
  }

  private reconnect(): void {
    this.settleFirstAttempt();
    const wasOpen = this.open;
    this.open = false;
    this.socket = undefined;
    if (this.closed) return;
    // Wake the consumer so it falls back to long polling now, not after its idle wait.
    if (wasOpen) this.options.onNotify();
    this.failures++;
    const delay = Math.max(250, backoffDelay({ ...defaultRetryPolicy, baseDelayMs: 500, maxDelayMs: MAX_RECONNECT_DELAY_MS }, this.failures));
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }
}

function socketUrl(baseUrl: string, queue: string): string {
  const url = new URL(`${baseUrl}/ws/consume`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('queue', queue);
  return url.toString();
}

/** In Node, `ws` with the credential in the handshake; elsewhere the global WebSocket and a ticket. */
async function openSocket(endpoint: PushEndpoint, queue: string): Promise<SocketLike> {
  const url = socketUrl(endpoint.baseUrl, queue);
  const nodeSocket = await nodeSocketFactory();
  if (nodeSocket) return nodeSocket(url, { authorization: `Bearer ${await endpoint.token()}` });
  const BrowserSocket = (globalThis as { WebSocket?: new (url: string) => SocketLike }).WebSocket;
  if (!BrowserSocket) throw new Error('Push mode needs a WebSocket: install the `ws` package');
  const ticketed = new URL(url);
  ticketed.searchParams.set('ticket', await endpoint.ticket());
  return new BrowserSocket(ticketed.toString());
}

async function nodeSocketFactory(): Promise<SocketFactory | undefined> {
  const isNode = typeof (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node === 'string';
  if (!isNode) return undefined;
  try {
    const module = await import(/* @vite-ignore */ NODE_WEBSOCKET_MODULE);
    const NodeWebSocket = module.default ?? module.WebSocket;
    return (url, headers) => new NodeWebSocket(url, { headers }) as SocketLike;
  } catch {
    return undefined; // no `ws`: fall back to a global WebSocket (Node 22+) with a ticket
  }
}

function socketError(event: unknown): Error {
  const inner = (event as { error?: unknown; message?: string } | undefined) ?? {};
  if (inner.error instanceof Error) return inner.error;
  return new Error(`WebSocket error${inner.message ? `: ${inner.message}` : ''}`);
}
