import { parseMonitorEvent, type MonitorEvent } from './events';

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'stopped';

/** The part of the browser's WebSocket this needs (so tests can hand in a fake). */
export type SocketLike = Pick<WebSocket, 'onopen' | 'onmessage' | 'onclose' | 'onerror' | 'close'>;

export interface ConnectionOptions {
  /** A fresh single-use ticket; tickets live 30 seconds, so one is fetched for every attempt. */
  ticket: () => Promise<string>;
  /** Opens the socket for a ticket. */
  open: (ticket: string) => SocketLike;
  onEvent: (event: MonitorEvent) => void;
  onStatus: (status: ConnectionStatus, detail?: string) => void;
  /** Delay before reconnect attempt n (1-based). Default: 1 s doubling to 15 s, with jitter. */
  delayMs?: (attempt: number) => number;
}

const defaultDelay = (attempt: number) => Math.min(15_000, 1000 * 2 ** (attempt - 1)) * (0.75 + Math.random() * 0.5);

/**
 * Keeps one /ws/monitor connection open: when it drops (broker restart, network, proxy timeout)
 * it reconnects with backoff, each time with a new ticket, until stop() is called.
 */
export class MonitorConnection {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private attempts = 0;
  private stopped = false;

  constructor(private readonly options: ConnectionOptions) {}

  start(): void {
    this.stopped = false;
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(1000, 'dashboard closed');
    }
    this.options.onStatus('stopped');
  }

  private async connect(): Promise<void> {
    this.options.onStatus(this.attempts === 0 ? 'connecting' : 'reconnecting');
    let ticket: string;
    try {
      ticket = await this.options.ticket();
    } catch (error) {
      return this.retry(error instanceof Error ? error.message : 'could not get a ticket');
    }
    if (this.stopped) return;
    const socket = this.options.open(ticket);
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.options.onStatus('open');
    };
    socket.onmessage = (message) => {
      const event = parseMonitorEvent(message.data);
      if (event) this.options.onEvent(event);
    };
    // A failed handshake fires error and then close; close alone decides what happens next.
    socket.onerror = () => undefined;
    socket.onclose = (closed) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.retry(closed.reason || `closed with code ${closed.code}`);
    };
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    this.attempts += 1;
    this.options.onStatus('reconnecting', reason);
    const delay = (this.options.delayMs ?? defaultDelay)(this.attempts);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, delay);
  }
}

/** ws://host/ws/monitor?ticket=… on this page's host (wss:// under https). */
export function monitorUrl(ticket: string, location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws/monitor?ticket=${encodeURIComponent(ticket)}`;
}
