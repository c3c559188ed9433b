import { ForbiddenError, PayloadTooLargeError } from '../errors.js';
import { hasScope } from '../auth/scopes.js';
import type { Principal } from '../auth/principal.js';
import type { Publisher } from '../broker/publish.js';
import { errorBodyOf } from './errorBody.js';
import type { PublishFrame } from '@miniqueue/sdk';

export interface PublishingDeps {
  publisher: Publisher;
  maxPayloadBytes: number;
  /** Answers kept for a resent `seq`: at least what a client may have unconfirmed. */
  remembered: number;
  send(frame: object): void;
  /** The number in flight changed (the session reads or stops reading the socket by it). */
  changed(): void;
  unexpected(error: unknown): void;
}

/** A publish's answer: `confirm`, or `reject` with the error's `status`. */
type Answer = { type: 'confirm' | 'reject'; seq: number; status?: number } & Record<string, unknown>;

/** A refusal that a resend could turn into a success (the database was away, a limit): not remembered. */
const retryable = (status: number) => status >= 500 || status === 429;

/**
 * A stream's publishes: each joins the broker's group commit for single publishes (with every
 * other stream's and every HTTP request's), and is answered `confirm` only after its commit, or
 * `reject` with the error HTTP would give. The answers of the last `remembered` sequence numbers are
 * kept, so a publish resent after a reconnect (the client did not see its answer) is answered again
 * and not stored twice; one still in flight is answered once, when it commits.
 */
export class StreamPublishes {
  private readonly inFlight = new Set<number>();
  private readonly answers = new Map<number, object>();

  constructor(private readonly deps: PublishingDeps) {}

  get unconfirmed(): number {
    return this.inFlight.size;
  }

  publish(principal: Principal, frame: PublishFrame): void {
    const { seq } = frame;
    const answered = this.answers.get(seq);
    if (answered) return this.deps.send(answered);
    if (this.inFlight.has(seq)) return;
    const refusal = this.refusal(principal, frame);
    if (refusal) return this.answer(seq, { type: 'reject', seq, ...errorBodyOf(refusal, this.deps.unexpected) });
    this.inFlight.add(seq);
    this.deps.changed();
    const item = {
      payload: frame.payload,
      headers: frame.headers ?? {},
      delaySeconds: frame.delay_seconds ?? 0,
      expiresInSeconds: frame.expires_in_seconds,
      priority: frame.priority,
      groupKey: frame.group_key,
      orderingKey: frame.ordering_key,
      idempotencyKey: frame.idempotency_key,
    };
    this.deps.publisher.publishOne(principal.owner, frame.topic, item).then(
      (outcome) =>
        this.settle(seq, {
          type: 'confirm',
          seq,
          message_ids: outcome.message_ids,
          queues: outcome.queues,
          duplicate: outcome.duplicate,
          // Only when a queue refused its copy: a confirm is otherwise what it always was.
          ...(outcome.refused && { refused: outcome.refused }),
        }),
      (error: unknown) => this.settle(seq, { type: 'reject', seq, ...errorBodyOf(error, this.deps.unexpected) }),
    );
  }

  private refusal(principal: Principal, frame: PublishFrame): Error | undefined {
    const scope = `publish:${frame.topic}`;
    if (!hasScope(principal, scope)) return new ForbiddenError('scope_required', `This needs the scope ${scope} (or admin)`, scope);
    const bytes = Buffer.byteLength(frame.payload, 'utf8');
    if (bytes > this.deps.maxPayloadBytes) return new PayloadTooLargeError(`Payload is ${bytes} bytes; the limit is ${this.deps.maxPayloadBytes}`);
    return undefined;
  }

  private settle(seq: number, frame: Answer): void {
    this.inFlight.delete(seq);
    this.answer(seq, frame);
    this.deps.changed();
  }

  private answer(seq: number, frame: Answer): void {
    if (frame.status === undefined || !retryable(frame.status)) {
      this.answers.set(seq, frame);
      if (this.answers.size > this.deps.remembered) this.answers.delete(this.answers.keys().next().value as number);
    }
    this.deps.send(frame);
  }
}
