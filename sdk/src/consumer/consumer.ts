import { processSpan } from '../tracing.js';
import { DeadLetterError, LeaseLostError } from '../errors.js';
import type { Message } from '../generated/index.js';
import { backoffDelay, defaultRetryPolicy } from '../http/retryPolicy.js';
import { Emitter } from './emitter.js';
import { asError, fatalErrorOf, oneLine } from './fatal.js';
import { HandlerLease } from './lease.js';
import { Leases } from './leases.js';
import { allowListeners } from './listenerLimit.js';
import { nackReason } from './nackReason.js';
import { PushChannel } from './push.js';
import { Slots } from './slots.js';
import { StreamFeed } from './streamFeed.js';
import type { ConsumerBroker, ConsumerEvents, ConsumerOptions, ErrorContext, MessageHandler, Outcome, Settles } from './types.js';
import { Wakeup } from './wakeup.js';
import { MAX_PREFETCH } from '../stream/frames.js';

const MAX_CLAIM_BACKOFF_MS = 30_000;
const MAX_DEFAULT_NACK_DELAY_SECONDS = 300;
const PUSH_CONNECT_GRACE_MS = 5000;
const IDLE_POLL_MS = 1000;
/** As Pub/Sub's client's default maximum extension: an hour. */
const DEFAULT_MAX_EXTENSION_SECONDS = 3600;

/** A message this consumer holds: buffered, or handled under `lease`. */
interface Held {
  message: Message;
  lease?: HandlerLease;
}

/** The same claim of a message: a resent delivery, not the message claimed again. */
const sameClaim = (a: Message, b: Message) => a.retry_count === b.retry_count && a.unacked_at?.getTime() === b.unacked_at?.getTime();

type Settings = Required<Omit<ConsumerOptions, 'heartbeat'>> & Pick<ConsumerOptions, 'heartbeat'>;

/** At least a second; NaN (a setting read from a bad environment variable) is the default, not a timer loop. */
const maxExtensionOf = (seconds: number | undefined) => (seconds === undefined || Number.isNaN(seconds) ? DEFAULT_MAX_EXTENSION_SECONDS : Math.max(1, seconds));

function settingsOf(options: ConsumerOptions): Settings {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  return {
    concurrency,
    batchSize: Math.min(100, Math.max(1, Math.floor(options.batchSize ?? concurrency))),
    prefetch: Math.min(MAX_PREFETCH, Math.max(1, Math.floor(options.prefetch ?? 2 * concurrency))),
    waitSeconds: options.waitSeconds ?? 20,
    nackDelay: options.nackDelay ?? ((message) => Math.min(MAX_DEFAULT_NACK_DELAY_SECONDS, 2 ** message.retry_count)),
    deadLetter: options.deadLetter ?? ((error) => error instanceof DeadLetterError),
    heartbeat: options.heartbeat,
    maxExtensionSeconds: maxExtensionOf(options.maxExtensionSeconds),
    stopTimeoutMs: options.stopTimeoutMs ?? 30_000,
    push: options.push ?? false,
    retryPermanentErrors: options.retryPermanentErrors ?? false,
  };
}

/**
 * Claims messages of one queue and runs a handler for each, at most `concurrency` at once: over
 * the client's stream (a subscription with a prefetch window, settled by frame) unless the client
 * uses HTTP or the stream cannot open, else by long polling over HTTP.
 * The handler's outcome is the acknowledgement: resolve → ack, throw → nack (retry with a delay,
 * or the dead-letter queue). Delivery is at-least-once, so handlers should be idempotent.
 */
export class Consumer extends Emitter<ConsumerEvents> {
  private readonly settings: Settings;
  private readonly slots: Slots;
  private readonly wakeup = new Wakeup();
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | undefined;
  private claimAbort = new AbortController();
  private handlersAbort = new AbortController();
  private stopRequested: Promise<void> = new Promise(() => undefined);
  private requestStop: () => void = () => undefined;
  private push: PushChannel | undefined;
  /** Pushed over the stream, not yet handed to a handler. */
  private readonly buffered: Message[] = [];
  /**
   * Messages buffered or being handled, by id: a resumed stream sends again what it held, which
   * may be here already, and a message whose lease ran out may be claimed again meanwhile.
   */
  private readonly holding = new Map<string, Held>();
  private settles: Settles;
  /** The leases of everything in `holding`, kept until settled or held for the maximum extension. */
  private readonly leases: Leases;

  constructor(
    private readonly broker: ConsumerBroker,
    readonly queue: string,
    private readonly handler: MessageHandler,
    options: ConsumerOptions = {},
  ) {
    super();
    this.settings = settingsOf(options);
    this.slots = new Slots(this.settings.concurrency);
    this.settles = broker;
    this.leases = new Leases({
      heartbeat: this.settings.heartbeat ?? {},
      maxExtensionMs: this.settings.maxExtensionSeconds * 1000,
      extend: (id, seconds) => this.settles.extend(id, seconds),
      lost: (message, error) => this.lost(message, error),
      reachedMaximum: (message) => this.handBack(message),
      failed: (message, error) => this.report(error, { phase: 'extend', message }),
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Number of handlers running now. */
  get active(): number {
    return this.inFlight.size;
  }

  /** Starts claiming; returns at once. Errors are reported through the `error` event, never thrown. */
  start(): this {
    if (this.running) return this;
    this.running = true;
    this.claimAbort = new AbortController();
    this.handlersAbort = new AbortController();
    // One listener per running handler's lease: more than Node's default of 10 is expected here.
    allowListeners(this.handlersAbort.signal, this.settings.concurrency);
    this.stopRequested = new Promise((resolve) => (this.requestStop = resolve));
    if (this.settings.push && !this.broker.stream) {
      this.push = new PushChannel({
        endpoint: this.broker.push,
        queue: this.queue,
        onNotify: () => this.wakeup.notify(),
        onError: (error) => this.report(error, { phase: 'push' }),
      });
    }
    this.loop = this.run();
    return this;
  }

  /**
   * Stops claiming, waits up to `stopTimeoutMs` for running handlers to finish (and be acked or
   * nacked), then returns. Handlers still running after that see their signal abort; their
   * messages are redelivered when their leases expire.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.requestStop();
    this.claimAbort.abort();
    this.wakeup.notify();
    this.push?.close();
    this.push = undefined;
    await this.loop;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const drained = this.drained().then(() => true);
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.settings.stopTimeoutMs)));
    const finished = await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    // From here on nothing is extended: what still runs is redelivered once its lease ends.
    this.leases.clear();
    if (finished) return;
    this.handlersAbort.abort(new Error(`Consumer of ${this.queue} stopped before its handlers finished`));
    this.releaseBuffered();
  }

  /** Resolves once every handler finished, those of messages still buffered included. */
  private async drained(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Hands back, at once, messages pushed to us that no handler started before stop() gave up. */
  private releaseBuffered(): void {
    for (const message of this.buffered.splice(0)) {
      this.holding.delete(message.message_id);
      this.leases.release(message);
      this.settles
        .nack(message.message_id, { requeue: true, delaySeconds: 0, reason: 'consumer stopped' })
        .catch((error) => this.report(error, { phase: 'nack', message }));
    }
  }

  private async run(): Promise<void> {
    if (this.broker.stream && (await this.runStream(this.broker.stream))) return;
    this.settles = this.broker;
    await this.runPolling();
  }

  /** False when streams cannot work here, so HTTP polling takes over. */
  private runStream(stream: NonNullable<ConsumerBroker['stream']>): Promise<boolean> {
    this.settles = stream;
    return new StreamFeed({
      stream,
      queue: this.queue,
      prefetch: this.settings.prefetch,
      deliver: (message) => this.enqueue(message),
      report: (error) => this.report(error, { phase: 'claim' }),
      pause: (ms) => this.pause(ms),
      isRunning: () => this.running,
      stopRequested: this.stopRequested,
    }).run();
  }

  private enqueue(message: Message): void {
    const older = this.holding.get(message.message_id);
    if (!this.admit(message)) return;
    const waiting = older ? this.buffered.indexOf(older.message) : -1;
    if (waiting >= 0)
      this.buffered[waiting] = message; // the newer claim waits in the older one's place
    else this.buffered.push(message);
    this.pump();
  }

  /**
   * False for a delivery held already (a resumed stream sends again what it held). A message
   * claimed again while an older claim of it is handled (its lease ran out, or a closed stream
   * released it) ends that claim's lease: its signal aborts and it is neither acked nor nacked,
   * as when the broker refuses its extension. The holder is the same, so only the claim tells them apart.
   */
  private admit(message: Message): boolean {
    const held = this.holding.get(message.message_id);
    if (held && sameClaim(held.message, message)) return false;
    held?.lease?.lose();
    this.holding.set(message.message_id, { message });
    this.leases.hold(message);
    return true;
  }

  /** An extension was refused: the message is not ours any more. A waiting one is dropped, a running handler aborted. */
  private lost(message: Message, error: unknown): void {
    const held = this.holding.get(message.message_id);
    if (held?.message !== message) return;
    if (held.lease) held.lease.lose(error);
    else this.unbuffer(message);
    this.report(held.lease?.signal.reason ?? new LeaseLostError(message.message_id, { cause: error }), { phase: 'extend', message });
  }

  /**
   * Held for the maximum extension: handed back before its lease ends, as it was claimed (retry
   * count unchanged, no delay), so any consumer may take it. A handler still running is aborted,
   * and its outcome not applied: the message is no longer this delivery's.
   */
  private handBack(message: Message): void {
    const held = this.holding.get(message.message_id);
    if (held?.message !== message) return;
    const why = new Error(`Held for the maximum extension (${this.settings.maxExtensionSeconds} s): handed back`);
    if (held.lease) held.lease.lose(why);
    else this.unbuffer(message);
    this.settles
      .nack(message.message_id, { requeue: true, delaySeconds: 0, countRetry: false })
      .catch((error) => this.report(error, { phase: 'nack', message }));
  }

  /** A waiting message that is no longer ours leaves the buffer. */
  private unbuffer(message: Message): void {
    const waiting = this.buffered.indexOf(message);
    if (waiting >= 0) this.buffered.splice(waiting, 1);
    this.holding.delete(message.message_id);
  }

  private pump(): void {
    while (this.slots.free > 0 && this.buffered.length > 0) this.dispatch(this.buffered.shift()!);
  }

  private async runPolling(): Promise<void> {
    let failures = 0;
    // Start in push mode when the socket comes up quickly, rather than in a long poll it cannot cut short.
    if (this.push) await this.pause(PUSH_CONNECT_GRACE_MS, this.push.ready);
    while (this.running) {
      await Promise.race([this.slots.whenFree(), this.stopRequested]);
      if (!this.running) return;
      try {
        const messages = await this.claim();
        failures = 0;
        // Claimed messages are ours even if stop() came meanwhile: handle them rather than strand them.
        messages.forEach((message) => this.admit(message) && this.dispatch(message));
      } catch (error) {
        if (!this.running) return;
        failures++;
        this.report(error, { phase: 'claim' });
        const delay = backoffDelay({ ...defaultRetryPolicy, baseDelayMs: 500, maxDelayMs: MAX_CLAIM_BACKOFF_MS }, failures);
        await this.pause(delay);
      }
    }
  }

  /** Waits `ms`, or less when stop() is called or `until` settles first. */
  private async pause(ms: number, until?: Promise<unknown>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const elapsed = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
    await Promise.race([elapsed, this.stopRequested, ...(until ? [until] : [])]);
    clearTimeout(timer);
  }

  /** Long-polls; in push mode with the socket up, polls once and then waits for a notification. */
  private async claim(): Promise<Message[]> {
    const pushed = this.push?.connected === true;
    this.wakeup.reset();
    const messages = await this.broker.receive(this.queue, {
      maxMessages: Math.min(this.settings.batchSize, this.slots.free),
      waitSeconds: pushed ? 0 : this.settings.waitSeconds,
      signal: this.claimAbort.signal,
    });
    if (messages.length === 0 && pushed) await this.wakeup.wait(Math.max(1, this.settings.waitSeconds) * 1000);
    // Without a long poll, an empty queue would otherwise be asked again at once, in a tight loop.
    else if (messages.length === 0 && this.settings.waitSeconds === 0) await this.pause(IDLE_POLL_MS);
    return messages;
  }

  private dispatch(message: Message): void {
    this.slots.take();
    const task = this.process(message).finally(() => {
      this.inFlight.delete(task);
      this.leases.release(message);
      if (this.holding.get(message.message_id)?.message === message) this.holding.delete(message.message_id);
      this.slots.release();
      this.pump();
    });
    this.inFlight.add(task);
  }

  private async process(message: Message): Promise<void> {
    const lease = new HandlerLease({
      message,
      extend: (seconds) => this.leases.extendNow(message, seconds),
      stopped: this.handlersAbort.signal,
    });
    const held = this.holding.get(message.message_id);
    if (held?.message === message) held.lease = lease;
    else lease.lose(); // claimed again between its delivery and now
    const started = Date.now();
    const span = await processSpan(this.queue, message);
    let failure: { error: unknown } | undefined;
    try {
      await span.run(() => this.handler(message, { signal: lease.signal, extend: (seconds) => lease.extendNow(seconds) }));
    } catch (error) {
      failure = { error };
      this.report(error, { phase: 'handler', message });
    }
    lease.stop();
    // Settled now: an extension must not outlive it (one in flight that lands after the ack is ignored).
    this.leases.release(message);
    // The broker no longer counts the message as ours: an ack or nack would only be refused.
    if (lease.lost) return span.end(undefined, failure?.error ?? new Error('lease lost'));
    const durationMs = Date.now() - started;
    const outcome = failure ? await this.reject(message, failure.error) : await this.acknowledge(message);
    span.end(outcome, failure?.error);
    if (outcome) this.emit('processed', { message, outcome, durationMs, ...failure });
  }

  private async acknowledge(message: Message): Promise<Outcome | undefined> {
    try {
      await this.settles.ack(message.message_id);
      return 'acked';
    } catch (error) {
      this.report(error, { phase: 'ack', message });
      return undefined;
    }
  }

  private async reject(message: Message, handlerError: unknown): Promise<Outcome | undefined> {
    try {
      const requeue = !this.settings.deadLetter(handlerError, message);
      const result = await this.settles.nack(message.message_id, {
        requeue,
        delaySeconds: requeue ? this.nackDelay(message, handlerError) : undefined,
        reason: nackReason(handlerError) || undefined,
      });
      return result.status === 'DEAD' ? 'dead' : 'requeued';
    } catch (error) {
      this.report(error, { phase: 'nack', message });
      return undefined;
    }
  }

  private nackDelay(message: Message, error: unknown): number {
    const { nackDelay } = this.settings;
    const seconds = typeof nackDelay === 'function' ? nackDelay(message, error) : nackDelay;
    return Math.min(900, Math.max(0, Math.round(seconds)));
  }

  private report(error: unknown, where: Omit<ErrorContext, 'error'>): void {
    if (where.phase === 'claim' && this.stopsFor(error)) return;
    // What the handler threw is its own business; anything else is handed on as an Error.
    const context = { ...where, error: where.phase === 'handler' ? error : asError(error) } as ErrorContext;
    // Without a listener, say it somewhere rather than swallow it, in one line (a stack per retry
    // buries everything else); never throw, as Node's 'error' would.
    if (!this.emit('error', error, context)) console.error(`MiniQueue consumer of ${this.queue} (${where.phase}): ${oneLine(error)}`);
  }

  /** A claim refused for good stops the consumer (unless told to keep retrying): true when it did. */
  private stopsFor(error: unknown): boolean {
    const fatal = this.settings.retryPermanentErrors ? null : fatalErrorOf(this.queue, error);
    if (!fatal || !this.running) return false;
    void this.stop();
    if (!this.emit('fatal', fatal)) console.error(fatal.message);
    return true;
  }
}
