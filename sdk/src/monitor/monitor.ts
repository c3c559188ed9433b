import { Emitter } from '../consumer/emitter.js';
import { backoffDelay, defaultRetryPolicy } from '../http/retryPolicy.js';
import { connectionFailure, openSocket, socketError, socketUrl, type SocketEndpoint, type SocketLike } from '../realtime/socket.js';
import { CLOSE_CREDENTIAL_ENDED, concernsQueue, parseMonitorEvent } from './events.js';
import type { MonitorEvents, MonitorOptions, MonitorStatus } from './types.js';

const MIN_RECONNECT_DELAY_MS = 250;
const RECONNECT_BASE_DELAY_MS = 1000;
const DEFAULT_MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * The broker's live feed (`/ws/monitor`, needs the `view` scope): every transition on every
 * instance, as `event`s. One socket at a time; when it drops (broker restart, network, proxy
 * timeout) or an attempt fails, it reconnects with backoff until stop(). Failures are reported
 * (`error`, `close`), never thrown: the caller decides which of them end its watch.
 */
export class Monitor extends Emitter<MonitorEvents> {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private stopped = true;
  /** Counts start() and stop() calls, so an attempt begun before the last one is dropped. */
  private generation = 0;
  private current: MonitorStatus = 'stopped';

  constructor(
    private readonly endpoint: SocketEndpoint,
    private readonly options: MonitorOptions = {},
  ) {
    super();
  }

  get status(): MonitorStatus {
    return this.current;
  }

  /** The address it opens (a browser adds a ticket to it on every attempt). */
  get url(): string {
    return socketUrl(this.endpoint.baseUrl, '/ws/monitor').toString();
  }

  /** Starts connecting; returns at once. */
  start(): this {
    if (!this.stopped) return this;
    this.stopped = false;
    this.generation += 1;
    this.failures = 0;
    void this.connect();
    return this;
  }

  /** Closes the socket (1000) and stops reconnecting; resolves once the socket has closed. */
  stop(): Promise<void> {
    this.stopped = true;
    this.generation += 1;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    this.setStatus('stopped');
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      socket.onclose = () => resolve();
      socket.close(1000, 'monitor stopped');
    });
  }

  private async connect(): Promise<void> {
    const generation = this.generation;
    this.setStatus(this.failures === 0 ? 'connecting' : 'reconnecting');
    let socket: SocketLike;
    try {
      socket = await openSocket(new URL(this.url), this.endpoint);
    } catch (error) {
      if (generation !== this.generation) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      this.emit('error', failure);
      return this.retry(failure.message);
    }
    if (generation !== this.generation) return socket.close(1000, 'monitor stopped');
    this.watch(socket);
  }

  private watch(socket: SocketLike): void {
    this.socket = socket;
    let opened = false;
    let lastError: Error | undefined;
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
      this.setStatus('open');
    };
    socket.onmessage = (message) => this.receive(message.data);
    // A failed handshake fires error and then close; close alone decides what happens next.
    socket.onerror = (event) => (lastError = socketError(event));
    socket.onclose = (closed) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (opened) this.emit('close', { code: closed.code, reason: closed.reason, credentialEnded: closed.code === CLOSE_CREDENTIAL_ENDED });
      else this.emit('error', connectionFailure(lastError ?? new Error(`closed with code ${closed.code}`), 'the monitor WebSocket'));
      this.retry(closed.reason || `closed with code ${closed.code}`);
    };
  }

  private receive(data: unknown): void {
    const event = parseMonitorEvent(data);
    if (!event) return;
    if (this.options.queue !== undefined && !concernsQueue(event, this.options.queue)) return;
    this.emit('event', event);
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    this.failures += 1;
    this.setStatus('reconnecting', reason);
    const policy = { ...defaultRetryPolicy, baseDelayMs: RECONNECT_BASE_DELAY_MS, maxDelayMs: this.options.maxReconnectDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS };
    const delay = Math.max(MIN_RECONNECT_DELAY_MS, backoffDelay(policy, this.failures));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.connect();
    }, delay);
  }

  private setStatus(status: MonitorStatus, detail?: string): void {
    this.current = status;
    this.emit('status', status, detail);
  }
}
