import { Emitter } from '../consumer/emitter.js';
import { ForbiddenError } from '../errors.js';
import { backoffDelay, defaultRetryPolicy } from '../http/retryPolicy.js';
import { connectionFailure, openSocket, socketError, socketUrl, type SocketEndpoint, type SocketLike } from '../realtime/socket.js';
import { CLOSE_CREDENTIAL_ENDED, concernsQueue, parseMonitorEvent } from './events.js';
import type { MonitorEvent } from './events.js';
import type { MonitorEvents, MonitorOptions, MonitorStatus, MonitorStream } from './types.js';

const MIN_RECONNECT_DELAY_MS = 250;
const RECONNECT_BASE_DELAY_MS = 1000;
const DEFAULT_MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * The broker's live feed (needs the `view` scope): every transition on every instance, as
 * `event`s. It is watched on the client's shared stream (`/ws/v1/stream`, a `watch` frame) when
 * the client has one, else, and where streams turn out not to work, on its own `/ws/monitor`
 * socket; the events are the same. When the connection drops (broker restart, network, proxy
 * timeout) or an attempt fails, it reconnects with backoff until stop(). Failures are reported
 * (`error`, `close`), never thrown: the caller decides which of them end its watch.
 */
export class Monitor extends Emitter<MonitorEvents> {
  private socket: SocketLike | null = null;
  /** The watch on the stream, while there is one. */
  private watching: { unwatch(): Promise<void> } | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private failures = 0;
  private stopped = true;
  /** Counts start() and stop() calls, so an attempt begun before the last one is dropped. */
  private generation = 0;
  private current: MonitorStatus = 'stopped';

  constructor(
    private readonly endpoint: SocketEndpoint,
    private readonly options: MonitorOptions = {},
    /** The client's stream; none (`transport: 'http'`), or once it turned out not to work: /ws/monitor. */
    private stream?: MonitorStream,
  ) {
    super();
  }

  get status(): MonitorStatus {
    return this.current;
  }

  /** The address it watches on (a browser adds a ticket to it on every attempt). */
  get url(): string {
    return this.stream?.url ?? socketUrl(this.endpoint.baseUrl, '/ws/monitor').toString();
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
    const watching = this.watching;
    this.watching = null;
    if (watching) {
      this.setStatus('stopped');
      return watching.unwatch();
    }
    const socket = this.socket;
    this.socket = null;
    this.setStatus('stopped');
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => {
      socket.onclose = () => resolve();
      socket.close(1000, 'monitor stopped');
    });
  }

  private connect(): Promise<void> {
    this.setStatus(this.failures === 0 ? 'connecting' : 'reconnecting');
    return this.stream ? this.watchStream(this.stream) : this.openSocket();
  }

  private async watchStream(stream: MonitorStream): Promise<void> {
    const generation = this.generation;
    const current = () => generation === this.generation;
    let watch: { unwatch(): Promise<void> } | null;
    try {
      watch = await stream.watch(this.options.queue, {
        event: (event) => current() && this.receive(event),
        watching: () => current() && this.opened(),
        interrupted: (error, closed) => current() && this.interrupted(error, closed),
        ended: (error, unavailable) => current() && this.ended(error, unavailable),
      });
    } catch (error) {
      if (!current()) return;
      const failure = error instanceof Error ? error : new Error(String(error));
      this.emit('error', failure);
      return this.retry(failure.message);
    }
    if (!current()) return void watch?.unwatch();
    if (!watch) return this.fallBack();
    this.watching = watch;
  }

  private opened(): void {
    this.failures = 0;
    this.setStatus('open');
  }

  /** The stream was lost: told as the socket's close or failed attempt would be; the stream reopens itself and watches again. */
  private interrupted(error: unknown, closed?: { code: number; reason: string }): void {
    if (closed) this.emit('close', { code: closed.code, reason: closed.reason, credentialEnded: closed.code === CLOSE_CREDENTIAL_ENDED });
    else this.emit('error', error instanceof Error ? error : new Error(String(error)));
    this.setStatus('reconnecting', closed?.reason || (error instanceof Error ? error.message : undefined));
  }

  private ended(error: unknown, unavailable: boolean): void {
    this.watching = null;
    if (unavailable) return this.fallBack();
    const failure = error instanceof Error ? error : new Error(String(error));
    // The credential lost `view`: told as /ws/monitor tells it, by closing with 1008.
    if (failure instanceof ForbiddenError) this.emit('close', { code: CLOSE_CREDENTIAL_ENDED, reason: failure.message, credentialEnded: true });
    else this.emit('error', failure);
    this.retry(failure.message);
  }

  /** Streams do not work here (the client said why, once): /ws/monitor from now on. */
  private fallBack(): void {
    this.stream = undefined;
    void this.connect();
  }

  private async openSocket(): Promise<void> {
    const generation = this.generation;
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
      this.opened();
    };
    socket.onmessage = (message) => {
      const event = parseMonitorEvent(message.data);
      if (event) this.receive(event);
    };
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

  private receive(event: MonitorEvent): void {
    if (this.options.queue !== undefined && !concernsQueue(event, this.options.queue)) return;
    this.emit('event', event);
  }

  private retry(reason: string): void {
    if (this.stopped) return;
    this.failures += 1;
    this.setStatus('reconnecting', reason);
    const policy = {
      ...defaultRetryPolicy,
      baseDelayMs: RECONNECT_BASE_DELAY_MS,
      maxDelayMs: this.options.maxReconnectDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS,
    };
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
