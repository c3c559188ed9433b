import { ConnectionError } from '../errors.js';
import type { AckResult, ExtendResult, NackResult, PublishResult } from '../generated/index.js';
import type { BrokerEndpoints } from '../http/endpoints.js';
import { retryPolicy, type RetryOptions, type RetryPolicy } from '../http/retryPolicy.js';
import { causeOf, connectionFailure, shownAddress, type SocketEndpoint } from '../realtime/socket.js';
import type { Schedule } from './batcher.js';
import { StreamConnection } from './connection.js';
import type { BrokerFrame } from './frames.js';
import { Publisher, type PublishFields } from './publisher.js';
import { Settler } from './settler.js';
import { socketOpener, streamUrl, type OpenStreamSocket } from './socket.js';
import { Subscriptions, type StreamSubscription, type SubscriptionHandlers } from './subscription.js';
import { Watches, type StreamWatch, type WatchHandlers } from './watches.js';

export interface StreamClientOptions {
  endpoint: SocketEndpoint;
  /** Sent as the `instance` query parameter: with the key's client it is the consumer identity. */
  instanceId?: string;
  /**
   * Reconnect backoff, how long calls wait for the stream to come back (`maxElapsedMs`; or until
   * `attempts` failed attempts in a row), and the retries of refused publishes and settles.
   */
  retry: RetryPolicy;
  /** The broker's URLs, when the client has several: the stream opens on the current one and moves on when it finds it away. */
  endpoints?: BrokerEndpoints;
  /** Told once, when streaming turns out not to work here. */
  warn(message: string): void;
  open?: OpenStreamSocket;
  schedule?: Schedule;
}

/** A stream cannot be used by this client: the call should go over HTTP instead. */
export class StreamUnavailableError extends Error {
  constructor(readonly reason: Error) {
    super(`Streaming is unavailable: ${reason.message}`, { cause: reason });
    this.name = 'StreamUnavailableError';
  }
}

/**
 * A client's one shared stream: publishes pipelined with confirms, subscriptions with prefetch,
 * acks, nacks and extends by frame, and watches of the live feed. Every call answers as its HTTP counterpart does, or
 * rejects with StreamUnavailableError when streams cannot work here, for the caller to use HTTP.
 */
export class StreamClient {
  private readonly connection: StreamConnection;
  private readonly publisher: Publisher;
  private readonly settler: Settler;
  private readonly subscriptions: Subscriptions;
  private readonly watches: Watches;
  private unavailable: StreamUnavailableError | undefined;
  /** The broker URL of the attempt under way, when there are several. */
  private attemptBase: string | undefined;
  /** Where the attempt under way goes, as errors may show it (no query: it carries the resume token). */
  private attemptAddress = '';
  /** Broker URLs that failed an attempt since the stream was last open. */
  private readonly triedInTurn = new Set<string>();
  /** When the stream went down (the first failed attempt in a row); undefined while it is open. */
  private downSince: number | undefined;

  constructor(private readonly options: StreamClientOptions) {
    this.publisher = new Publisher((frame) => this.connection.send(frame), options.retry);
    this.settler = new Settler({ send: (frame) => this.connection.send(frame), beforeFlush: (prepare) => this.connection.beforeFlush(prepare) }, options.retry);
    this.subscriptions = new Subscriptions((frame) => this.connection.send(frame));
    this.watches = new Watches((frame) => this.connection.send(frame));
    this.connection = new StreamConnection({
      open: options.open ?? socketOpener(options.endpoint),
      url: (resume) => {
        this.attemptBase = options.endpoints?.current();
        const endpoint = this.attemptBase === undefined ? options.endpoint : { ...options.endpoint, baseUrl: this.attemptBase };
        const url = streamUrl(endpoint, { instance: options.instanceId, resume });
        this.attemptAddress = shownAddress(url);
        return url;
      },
      backoff: options.retry,
      unreachable: () => this.failOver(),
      schedule: options.schedule,
      handlers: {
        opened: (welcome) => this.opened(welcome.resumed),
        frame: (frame) => this.answer(frame),
        lost: (error, failures, closed) => this.lost(error, failures, closed),
        unavailable: (reason) => this.giveUp(reason),
        refused: (error) => this.failAll(error),
        busy: () => this.busy(),
      },
    });
  }

  /** False once streams turned out not to work here: every call then rejects with StreamUnavailableError. */
  get available(): boolean {
    return this.unavailable === undefined;
  }

  /** `retry` (over the client's policy) bounds the retries of refusals that may succeed later (429, 5xx). */
  publish(fields: PublishFields, signal?: AbortSignal, retry?: RetryOptions): Promise<PublishResult> {
    const policy = retry ? retryPolicy(this.options.retry, retry) : this.options.retry;
    return this.track(() => this.publisher.publish(fields, signal, policy));
  }

  subscribe(queue: string, prefetch: number, handlers: SubscriptionHandlers): Promise<StreamSubscription> {
    return this.track(() => this.subscriptions.subscribe(queue, prefetch, handlers));
  }

  /** The broker's live feed (needs `view`), or one queue's events. */
  watch(queue: string | undefined, handlers: WatchHandlers): Promise<StreamWatch> {
    return this.track(() => this.watches.watch(queue, handlers)).then((watch) => ({
      // Once nothing else waits on the stream, a Node process may exit again.
      unwatch: () => watch.unwatch().finally(() => this.connection.hold(this.busy())),
    }));
  }

  ack(messageId: string): Promise<AckResult> {
    return this.track(() => this.settler.ack(messageId));
  }

  nack(messageId: string, options: { requeue?: boolean; delaySeconds?: number; reason?: string; countRetry?: boolean }): Promise<NackResult> {
    return this.track(() => this.settler.nack(messageId, options));
  }

  extend(messageId: string, seconds: number): Promise<ExtendResult> {
    return this.track(() => this.settler.extend(messageId, seconds));
  }

  /** Closes the stream; calls still waiting on it reject with ConnectionError. */
  close(): void {
    this.connection.close();
    this.failAll(new ConnectionError({ status: 0, message: 'The client was closed' }));
  }

  private track<T>(call: () => Promise<T>): Promise<T> {
    if (this.unavailable) return Promise.reject(this.unavailable);
    const promise = call();
    this.connection.connect();
    this.connection.hold(true);
    const settled = () => this.connection.hold(this.busy());
    promise.then(settled, settled);
    return promise;
  }

  private opened(resumed: boolean): void {
    this.downSince = undefined;
    this.triedInTurn.clear();
    this.publisher.resend();
    this.settler.resend();
    this.subscriptions.reopened(resumed);
    this.watches.reopened(resumed);
  }

  private answer(frame: BrokerFrame): void {
    if (this.publisher.answer(frame) || this.settler.answer(frame) || this.watches.answer(frame)) return;
    this.subscriptions.answer(frame);
  }

  private lost(error: Error, failures: number, closed?: { code: number; reason: string }): void {
    // Consumers hear of every failed attempt, as of every failed long poll over HTTP.
    const failure = connectionFailure(error, `the stream at ${this.attemptAddress}`);
    this.subscriptions.interrupted(failure);
    this.watches.interrupted(failure, closed);
    // Counted while something waits on the stream: a stream lost while idle is reopened on next use.
    this.downSince = this.busy() ? (this.downSince ?? Date.now()) : undefined;
    // As an HTTP call gives up once its retry policy does: what waits for an answer fails; subscriptions keep trying.
    const given =
      error instanceof ConnectionError
        ? error
        : new ConnectionError({
            status: 0,
            message: `Cannot reach the broker stream at ${this.attemptAddress} (${causeOf(error)})`,
            cause: error,
            attempts: failures,
          });
    if (failures >= this.options.retry.attempts) {
      this.publisher.failAll(given);
      this.settler.failAll(given);
      return;
    }
    // Each publish by its own policy (a call's `retry` may change it); settles by the client's.
    this.publisher.failExpired(given);
    if (this.downSince !== undefined && Date.now() - this.downSince >= this.options.retry.maxElapsedMs) this.settler.failAll(given);
  }

  /** An attempt found the broker away: with several URLs, the next one; true to try it at once. */
  private failOver(): boolean {
    const { endpoints } = this.options;
    const base = this.attemptBase;
    if (!endpoints?.several || base === undefined) return false;
    this.triedInTurn.add(base);
    endpoints.failed(base);
    if (!this.triedInTurn.has(endpoints.current())) return true;
    // Every URL failed since the stream was open: back off before the next turn.
    this.triedInTurn.clear();
    return false;
  }

  private giveUp(reason: Error): void {
    this.unavailable = new StreamUnavailableError(reason);
    this.options.warn(`MiniQueue: streaming is unavailable (${reason.message}); using HTTP (and /ws/monitor for the live feed) instead`);
    this.failAll(this.unavailable);
  }

  private failAll(error: unknown): void {
    this.publisher.failAll(error);
    this.settler.failAll(error);
    this.subscriptions.failAll(error);
    this.watches.failAll(error);
  }

  private busy(): boolean {
    return this.publisher.size > 0 || this.settler.size > 0 || this.subscriptions.size > 0 || this.watches.size > 0;
  }
}
