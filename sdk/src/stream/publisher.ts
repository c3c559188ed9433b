import type { PublishResult } from '../generated/index.js';
import { errorFromBody } from '../http/responseError.js';
import { defaultRetryPolicy, type RetryPolicy } from '../http/retryPolicy.js';
import type { BrokerFrame, ErrorFields, PublishFrame } from './frames.js';
import { retryAfterMsOf, retryDelayOf } from './refusal.js';

export type PublishFields = Omit<PublishFrame, 'type' | 'seq'>;

interface Unconfirmed {
  frame: PublishFrame;
  retry: RetryPolicy;
  /** Answers that refused it so far, plus the attempt now waiting for its answer. */
  attempts: number;
  /** When publish() was called (Date.now()): its policy's maxElapsedMs counts from here. */
  startedAt: number;
  /** Set while it waits out a refusal's retry delay before being sent again. */
  retryTimer?: ReturnType<typeof setTimeout>;
  resolve(result: PublishResult): void;
  reject(error: unknown): void;
}

/**
 * The bookkeeping of publisher confirms: every publish gets the next `seq` and stays unconfirmed
 * until the broker's `confirm` or `reject` of that `seq`, in whatever order they come. After a
 * reconnect, `resend` sends every unconfirmed frame again with its same `seq` (and idempotency
 * key), oldest first: a resumed stream confirms what it already committed without storing it
 * again, and a new stream deduplicates by the key. A refusal that retrying may turn into a
 * success (429, 5xx: the broker does not remember those) is sent again, same `seq`, after its
 * `retry_after_seconds` or the policy's backoff, as an HTTP publish is retried.
 */
export class Publisher {
  private nextSeq = 1;
  // Insertion order is seq order: a resend keeps the sequence increasing.
  private readonly unconfirmed = new Map<number, Unconfirmed>();

  constructor(
    private readonly send: (frame: PublishFrame) => void,
    private readonly retry: RetryPolicy = defaultRetryPolicy,
    private readonly random?: () => number,
  ) {}

  /** Publishes still waiting for their confirm. */
  get size(): number {
    return this.unconfirmed.size;
  }

  publish(fields: PublishFields, signal?: AbortSignal, retry: RetryPolicy = this.retry): Promise<PublishResult> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const frame: PublishFrame = { type: 'publish', seq: this.nextSeq++, ...fields };
    return new Promise<PublishResult>((resolve, reject) => {
      const onAbort = () => this.settle(frame.seq)?.reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const detach = () => signal?.removeEventListener('abort', onAbort);
      this.unconfirmed.set(frame.seq, {
        frame,
        retry,
        attempts: 1,
        startedAt: Date.now(),
        resolve: (result) => (detach(), resolve(result)),
        reject: (error) => (detach(), reject(error)),
      });
      this.send(frame);
    });
  }

  /** Handles `confirm`, `reject` and an `error` naming a `seq`; false for any other frame. */
  answer(frame: BrokerFrame): boolean {
    if (frame.type === 'confirm') {
      const { message_ids, queues, duplicate, refused } = frame;
      // `refused` only when a queue refused its copy, as the HTTP answer has it.
      this.settle(frame.seq)?.resolve(refused ? { message_ids, queues, duplicate, refused } : { message_ids, queues, duplicate });
      return true;
    }
    if ((frame.type === 'reject' || frame.type === 'error') && typeof frame.seq === 'number') {
      this.refused(frame.seq, frame);
      return true;
    }
    return false;
  }

  resend(): void {
    for (const entry of this.unconfirmed.values()) if (!entry.retryTimer) this.send(entry.frame);
  }

  /** Ends every unconfirmed publish with this error. */
  failAll(error: unknown): void {
    for (const seq of [...this.unconfirmed.keys()]) this.settle(seq)?.reject(error);
  }

  /**
   * Ends with `error` the unconfirmed publishes that have been retrying for their policy's
   * `maxElapsedMs` (the stream is down); the others wait for it to come back.
   */
  failExpired(error: unknown, now = Date.now()): void {
    for (const [seq, entry] of [...this.unconfirmed]) if (now - entry.startedAt >= entry.retry.maxElapsedMs) this.settle(seq)?.reject(error);
  }

  /**
   * Takes every unconfirmed publish off the stream, for another way to deliver (HTTP): each
   * comes with the resolve and reject of its caller's promise.
   */
  takeAll(): Array<{ fields: PublishFields; resolve(result: PublishResult): void; reject(error: unknown): void }> {
    const taken = [...this.unconfirmed.values()];
    taken.forEach((entry) => clearTimeout(entry.retryTimer));
    this.unconfirmed.clear();
    return taken.map(({ frame: { type: _type, seq: _seq, ...fields }, resolve, reject }) => ({ fields, resolve, reject }));
  }

  /** A refusal: sent again later when retrying may help and the policy allows, else the typed error. */
  private refused(seq: number, body: ErrorFields): void {
    const entry = this.unconfirmed.get(seq);
    // Waiting to be sent again already: this answers a copy resent on a reopened stream meanwhile.
    if (!entry || entry.retryTimer) return;
    const delay = retryDelayOf(entry.retry, entry.attempts, body, this.random, Date.now() - entry.startedAt);
    if (delay === null) return this.settle(seq)?.reject(errorFromBody(body.status, body, { attempts: entry.attempts, retryAfterMs: retryAfterMsOf(body) }));
    entry.attempts++;
    entry.retryTimer = setTimeout(() => {
      entry.retryTimer = undefined;
      this.send(entry.frame); // not open: the stream's resend sends it once it is back
    }, delay);
  }

  private settle(seq: number): Unconfirmed | undefined {
    const entry = this.unconfirmed.get(seq);
    this.unconfirmed.delete(seq);
    clearTimeout(entry?.retryTimer);
    return entry;
  }
}
