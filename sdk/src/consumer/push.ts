import { backoffDelay, defaultRetryPolicy } from '../http/retryPolicy.js';
import { openSocket, socketError, socketUrl, type SocketLike } from '../realtime/socket.js';
import type { PushEndpoint } from './types.js';

export interface PushChannelOptions {
  endpoint: PushEndpoint;
  queue: string;
  /** Called for every notification of this queue. */
  onNotify: () => void;
  onError: (error: unknown) => void;
}

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
      const { endpoint, queue } = this.options;
      const socket = await openSocket(socketUrl(endpoint.baseUrl, '/ws/consume', { queue }), endpoint);
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
