import { AckResultStatusEnum, type AckResult, type ExtendResult, type NackResult } from '../generated/index.js';
import { errorFromBody } from '../http/responseError.js';
import { defaultRetryPolicy, type RetryPolicy } from '../http/retryPolicy.js';
import { MAX_ACK_IDS, MAX_EXTEND_IDS, type BrokerFrame, type ClientFrame, type ErrorFields } from './frames.js';
import { retryDelayOf } from './refusal.js';

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** A settle frame sent (or to be sent) and whoever waits for its answer. */
interface Settle {
  frame: ClientFrame & { ref: number };
  answer(frame: BrokerFrame): void;
  fail(error: unknown): void;
  /** Answers that refused it for now, plus the attempt waiting for its answer. */
  attempts: number;
  /** When it was first sent (Date.now()): the retry policy's maxElapsedMs counts from here. */
  startedAt: number;
  /** Set while it waits out such a refusal before being sent again. */
  retryTimer?: ReturnType<typeof setTimeout>;
}

export interface SettlerLink {
  /** Queues a frame for this turn's message; false when the stream is not open. */
  send(frame: ClientFrame): boolean;
  /** Runs `prepare` right before this turn's frames are written. */
  beforeFlush(prepare: () => void): void;
}

/**
 * Acks, nacks and extends by frame, each with a `ref` so its answer (or failure) reaches the caller.
 * The acks of one turn become one `ack` frame with many ids (up to 1,000 a frame), and so do its
 * extends of the same length (a consumer's extension round of all it holds). Settles issued
 * while the stream is down, and those unanswered when it went down, are sent once it is back:
 * the lease belongs to the consumer identity, which a new stream keeps. A settle answered `error`
 * with a status that retrying may change (429, 5xx: nothing was settled) is sent again after its
 * `retry_after_seconds` or the policy's backoff, as an HTTP settle is retried.
 */
export class Settler {
  private nextRef = 1;
  private acks = new Map<string, Array<Waiter<AckResult>>>();
  /** This turn's extends: by seconds, then by id. */
  private extensions = new Map<number, Map<string, Array<Waiter<ExtendResult>>>>();
  private readonly open = new Map<number, Settle>();

  constructor(
    private readonly link: SettlerLink,
    private readonly retry: RetryPolicy = defaultRetryPolicy,
  ) {}

  /** Settles waiting for an answer. */
  get size(): number {
    return this.open.size + this.acks.size + this.extensions.size;
  }

  ack(messageId: string): Promise<AckResult> {
    return new Promise((resolve, reject) => {
      if (this.acks.size === 0) this.link.beforeFlush(() => this.flushAcks());
      const waiters = this.acks.get(messageId) ?? [];
      waiters.push({ resolve, reject });
      this.acks.set(messageId, waiters);
    });
  }

  nack(messageId: string, options: { requeue?: boolean; delaySeconds?: number; reason?: string; countRetry?: boolean }): Promise<NackResult> {
    return new Promise((resolve, reject) => {
      const frame = {
        type: 'nack' as const,
        id: messageId,
        requeue: options.requeue,
        delay_seconds: options.delaySeconds,
        reason: options.reason,
        count_retry: options.countRetry,
      };
      this.start(
        frame,
        (answer) => {
          if (answer.type === 'nacked') resolve({ message_id: answer.message_id, status: answer.status as NackResult['status'] });
          else if (answer.type === 'error') reject(errorFromBody(answer.status, answer));
        },
        reject,
      );
    });
  }

  extend(messageId: string, seconds: number): Promise<ExtendResult> {
    return new Promise((resolve, reject) => {
      if (this.extensions.size === 0) this.link.beforeFlush(() => this.flushExtensions());
      const byId = this.extensions.get(seconds) ?? new Map<string, Array<Waiter<ExtendResult>>>();
      this.extensions.set(seconds, byId);
      const waiters = byId.get(messageId) ?? [];
      waiters.push({ resolve, reject });
      byId.set(messageId, waiters);
    });
  }

  /** Handles `acked`, `nacked`, `extended` and an `error` naming a ref of ours; false otherwise. */
  answer(frame: BrokerFrame): boolean {
    const ref = 'ref' in frame ? frame.ref : undefined;
    if (ref === undefined || !['acked', 'nacked', 'extended', 'error'].includes(frame.type)) return false;
    const settle = this.open.get(ref);
    if (!settle) return false;
    if (settle.retryTimer) return true; // a copy resent on a reopened stream meanwhile: the retry stands
    if (frame.type === 'error' && this.retryLater(settle, frame)) return true;
    this.open.delete(ref);
    settle.answer(frame);
    return true;
  }

  /** Sends again every settle still unanswered (the stream came back). */
  resend(): void {
    for (const settle of this.open.values()) if (!settle.retryTimer) this.link.send(settle.frame);
  }

  failAll(error: unknown): void {
    const open = [...this.open.values()];
    this.open.clear();
    open.forEach((settle) => clearTimeout(settle.retryTimer));
    const acks = [...this.acks.values()].flat();
    this.acks.clear();
    const extensions = [...this.extensions.values()].flatMap((byId) => [...byId.values()].flat());
    this.extensions.clear();
    open.forEach((settle) => settle.fail(error));
    acks.forEach((waiter) => waiter.reject(error));
    extensions.forEach((waiter) => waiter.reject(error));
  }

  private start(frame: ClientFrame, answer: (frame: BrokerFrame) => void, fail: (error: unknown) => void): void {
    const settle: Settle = { frame: { ...frame, ref: this.nextRef++ }, answer, fail, attempts: 1, startedAt: Date.now() };
    this.open.set(settle.frame.ref, settle);
    this.link.send(settle.frame);
  }

  /** Schedules a resend of the same frame (same ref) when retrying may help and the policy allows. */
  private retryLater(settle: Settle, body: ErrorFields): boolean {
    const delay = retryDelayOf(this.retry, settle.attempts, body, undefined, Date.now() - settle.startedAt);
    if (delay === null) return false;
    settle.attempts++;
    settle.retryTimer = setTimeout(() => {
      settle.retryTimer = undefined;
      this.link.send(settle.frame); // not open: the stream's resend sends it once it is back
    }, delay);
    return true;
  }

  private flushAcks(): void {
    const acks = this.acks;
    this.acks = new Map();
    const ids = [...acks.keys()];
    for (let start = 0; start < ids.length; start += MAX_ACK_IDS) {
      const chunk = ids.slice(start, start + MAX_ACK_IDS);
      const waiters = (id: string) => acks.get(id) ?? [];
      this.start(
        { type: 'ack', ids: chunk },
        (answer) => {
          if (answer.type === 'error') return chunk.forEach((id) => waiters(id).forEach((w) => w.reject(errorFromBody(answer.status, answer))));
          if (answer.type !== 'acked') return;
          for (const id of answer.acked) waiters(id).forEach((w) => w.resolve({ message_id: id, status: AckResultStatusEnum.Acked }));
          for (const failure of answer.failed) waiters(failure.message_id).forEach((w) => w.reject(errorFromBody(failure.status, failure)));
          const answered = new Set([...answer.acked, ...answer.failed.map((failure) => failure.message_id)]);
          const silent = chunk.filter((id) => !answered.has(id));
          silent.forEach((id) => waiters(id).forEach((w) => w.reject(new Error(`The broker did not answer the ack of ${id}`))));
        },
        (error) => chunk.forEach((id) => waiters(id).forEach((w) => w.reject(error))),
      );
    }
  }

  /** One `extend` frame per length and 1,000 ids, answered per id. */
  private flushExtensions(): void {
    const extensions = this.extensions;
    this.extensions = new Map();
    for (const [seconds, byId] of extensions) {
      const ids = [...byId.keys()];
      for (let start = 0; start < ids.length; start += MAX_EXTEND_IDS) {
        const chunk = ids.slice(start, start + MAX_EXTEND_IDS);
        const waiters = (id: string) => byId.get(id) ?? [];
        this.start(
          { type: 'extend', ids: chunk, seconds },
          (answer) => {
            if (answer.type === 'error') return chunk.forEach((id) => waiters(id).forEach((w) => w.reject(errorFromBody(answer.status, answer))));
            if (answer.type !== 'extended' || !('extended' in answer)) return;
            for (const lease of answer.extended) {
              const result = { message_id: lease.message_id, lease_expires_at: new Date(lease.lease_expires_at) };
              waiters(lease.message_id).forEach((w) => w.resolve(result));
            }
            for (const failure of answer.failed) waiters(failure.message_id).forEach((w) => w.reject(errorFromBody(failure.status, failure)));
            const answered = new Set([...answer.extended.map((lease) => lease.message_id), ...answer.failed.map((failure) => failure.message_id)]);
            const silent = chunk.filter((id) => !answered.has(id));
            silent.forEach((id) => waiters(id).forEach((w) => w.reject(new Error(`The broker did not answer the extend of ${id}`))));
          },
          (error) => chunk.forEach((id) => waiters(id).forEach((w) => w.reject(error))),
        );
      }
    }
  }
}
