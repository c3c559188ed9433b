import { BrokerError, ConflictError, UnavailableError, type ErrorCode } from '../errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.js';
import type { Pool } from '../db/pool.js';
import type { Holder } from '../db/queries/messageRow.js';
import {
  messageAck,
  messageExtend,
  messageFindState,
  messageNack,
  type AckedRow,
  type ExtendedRow,
  type MessageState,
  type ReturnedRow,
} from '../db/queries/messageSettle.js';
import { transitionsOf, type Changes } from './changes.js';
import { GroupCommit, type BatchResult, type GroupCommitLimits } from './groupCommit.js';
import { afterAdvance } from './ordering.js';
import { messageNotFound } from './messageById.js';
import { now, recordSpans, tracing } from '../tracing/spans.js';

export type { Holder };

export interface Acked {
  id: string;
  queue_name: string;
  published_at: Date;
  /** This holder had acked it already (a retried ack whose first answer was lost). */
  repeated: boolean;
}

export interface AckManyResult {
  acked: Acked[];
  failed: { message_id: string; status: number; code: ErrorCode; message: string }[];
}

interface AckRequest {
  ids: string[];
  holder: Holder;
}

type Failure = AckManyResult['failed'][number];

export interface ExtendManyResult {
  extended: { id: string; lease_expires_at: Date }[];
  failed: Failure[];
}

interface ExtendRequest extends AckRequest {
  seconds: number;
}

export interface NackOptions {
  requeue: boolean;
  delaySeconds: number;
  reason: string | null;
  /**
   * False hands the message back without using a retry (see messageNack). Default true. With
   * `requeue` false it has nothing to keep: the message is dead-lettered as any refused one is.
   */
  countRetry?: boolean;
}

interface NackRequest extends NackOptions {
  id: string;
  holder: Holder;
}

/**
 * Why a message could not be settled by this holder, or that it already was by this very holder.
 * Looked up only after the guarded statement left it out, so the success path stays one statement.
 */
function explain(id: string, state: MessageState | undefined, holder: Holder): BrokerError | 'already-acked' {
  // A queue the holder may not consume hides its messages: the same answer as no message at all.
  if (!state || (holder.queues && !holder.queues.includes(state.queue_name))) return messageNotFound(id);
  if (state.status === 'ACKED' && state.holder === holder.holder) return 'already-acked';
  if (state.status !== 'UNACKED') return new ConflictError('message_not_unacked', `Message ${id} is ${state.status}, not UNACKED`);
  return new ConflictError('lease_lost', `Message ${id} is held by another consumer, or its lease was lost`);
}

/**
 * Acks, nacks and lease extensions. Concurrent requests of each kind are group-committed: one
 * statement, one commit for all of them (whatever number of ids each carries); each request
 * learns its own outcome.
 */
export class Settler {
  private readonly acks: GroupCommit<AckRequest, AckManyResult>;
  private readonly nacks: GroupCommit<NackRequest, ReturnedRow>;
  private readonly extensions: GroupCommit<ExtendRequest, ExtendManyResult>;

  constructor(
    private readonly deps: {
      pool: Pool;
      changes: Changes;
      ackedRetentionHours: number;
      groupCommit: GroupCommitLimits;
    },
  ) {
    const options = { ...deps.groupCommit, isFinal: isDatabaseUnavailable };
    this.acks = new GroupCommit((requests) => this.ackBatch(requests), options);
    this.nacks = new GroupCommit((requests) => this.nackBatch(requests), options);
    this.extensions = new GroupCommit((requests) => this.extendBatch(requests), options);
  }

  get groupCommitStats() {
    return { acks: this.acks.stats, nacks: this.nacks.stats, extends: this.extensions.stats };
  }

  /** Acks what the holder holds; every other id is reported with an HTTP-like status. */
  ackMany(ids: string[], holder: Holder): Promise<AckManyResult> {
    return this.acks.submit({ ids: [...new Set(ids)], holder });
  }

  async ackOne(id: string, holder: Holder): Promise<Acked> {
    const { acked, failed } = await this.ackMany([id], holder);
    if (acked.length === 1) return acked[0];
    throw new BrokerError(failed[0].status, failed[0].code, failed[0].message);
  }

  async nackOne(id: string, holder: Holder, options: NackOptions): Promise<ReturnedRow> {
    return this.nacks.submit({ id, holder, ...options });
  }

  /** Sets the lease of every id the holder holds to now + seconds; every other id is reported with an HTTP-like status. */
  extendMany(ids: string[], holder: Holder, seconds: number): Promise<ExtendManyResult> {
    return this.extensions.submit({ ids: [...new Set(ids)], holder, seconds });
  }

  async extend(id: string, holder: Holder, seconds: number): Promise<{ id: string; lease_expires_at: Date }> {
    const { extended, failed } = await this.extendMany([id], holder, seconds);
    if (extended.length === 1) return extended[0];
    throw new BrokerError(failed[0].status, failed[0].code, failed[0].message);
  }

  private async extendBatch(requests: ExtendRequest[]): Promise<BatchResult<ExtendManyResult>[]> {
    const items = requests.flatMap((request, ref) => request.ids.map((id) => ({ ref, id, holder: request.holder, seconds: request.seconds })));
    const rows = await messageExtend(this.deps.pool, items);
    // By holder and id: one holder's two requests for an id in a batch update its row once, and both see it.
    const key = (holder: Holder, id: string) => `${holder.holder}\n${id}`;
    const extendedBy = new Map<string, ExtendedRow>();
    for (const row of rows) extendedBy.set(key(requests[row.ref].holder, row.id), row);
    const missed = items.filter((item) => !extendedBy.has(key(item.holder, item.id))).map((item) => item.id);
    const states = await this.statesAfterCommit(missed);
    return requests.map((request) => {
      const result: ExtendManyResult = { extended: [], failed: [] };
      for (const id of request.ids) {
        const row = extendedBy.get(key(request.holder, id));
        if (row) {
          result.extended.push({ id, lease_expires_at: row.lease_expires_at });
          continue;
        }
        const reason = states instanceof Error ? states : explain(id, states.get(id), request.holder);
        const error = reason === 'already-acked' ? new ConflictError('message_not_unacked', `Message ${id} is ACKED, not UNACKED`) : reason;
        result.failed.push({ message_id: id, status: error.status, code: error.code, message: error.message });
      }
      return result;
    });
  }

  private async ackBatch(requests: AckRequest[]): Promise<BatchResult<AckManyResult>[]> {
    const items = requests.flatMap((request, ref) => request.ids.map((id) => ({ ref, id, holder: request.holder })));
    const traced = tracing.enabled;
    const started = traced ? now() : 0;
    const { own: rows, advanced } = await messageAck(this.deps.pool, items, this.deps.ackedRetentionHours, traced);
    if (traced)
      recordSpans(
        rows.map((row) => ({ id: row.id, queue_name: row.queue_name, trace: row.trace ?? null })),
        'settle',
        'ack',
        started,
      );
    this.deps.changes.committed(
      transitionsOf(
        'ACKED',
        rows.map((row) => ({ queue: row.queue_name, id: row.id, publishedAt: row.published_at })),
      ),
    );
    await afterAdvance(this.deps.pool, this.deps.changes, advanced);
    const ackedBy = new Map<number, Map<string, AckedRow>>();
    for (const row of rows) {
      if (!ackedBy.has(row.ref)) ackedBy.set(row.ref, new Map());
      ackedBy.get(row.ref)?.set(row.id, row);
    }
    const missed = items.filter((item) => !ackedBy.get(item.ref)?.has(item.id)).map((item) => item.id);
    const states = await this.statesAfterCommit(missed);
    return requests.map((request, ref) => {
      const result: AckManyResult = { acked: [], failed: [] };
      for (const id of request.ids) {
        const row = ackedBy.get(ref)?.get(id);
        if (row) {
          result.acked.push({ id, queue_name: row.queue_name, published_at: row.published_at, repeated: false });
          continue;
        }
        const state = states instanceof Error ? undefined : states.get(id);
        const reason = states instanceof Error ? states : explain(id, state, request.holder);
        if (reason === 'already-acked') result.acked.push({ id, queue_name: state?.queue_name as string, published_at: new Date(), repeated: true });
        else result.failed.push({ message_id: id, status: reason.status, code: reason.code, message: reason.message });
      }
      return result;
    });
  }

  private async nackBatch(requests: NackRequest[]): Promise<BatchResult<ReturnedRow>[]> {
    const traced = tracing.enabled;
    const started = traced ? now() : 0;
    const { own: rows, advanced } = await messageNack(
      this.deps.pool,
      requests.map((request, ref) => ({ ref, ...request, countRetry: request.requeue ? request.countRetry : true })),
      traced,
    );
    if (traced) recordLeftLeaseSpans(rows, 'nack', started);
    announceLeftLease(this.deps.changes, rows, 'NACKED', 'NACKED_DEAD');
    await afterAdvance(this.deps.pool, this.deps.changes, advanced);
    const byRef = new Map(rows.map((row) => [row.ref, row]));
    const missed = requests.filter((_, ref) => !byRef.has(ref)).map((request) => request.id);
    const states = await this.statesAfterCommit(missed);
    return requests.map((request, ref) => {
      const row = byRef.get(ref);
      if (row) return row;
      const reason = states instanceof Error ? states : explain(request.id, states.get(request.id), request.holder);
      return reason === 'already-acked' ? new ConflictError('message_not_unacked', `Message ${request.id} is ACKED, not UNACKED`) : reason;
    });
  }

  /**
   * Where the messages a committed statement left out are now, to say why. Read after the commit,
   * so a failure here must not fail the batch (groupCommit.ts): it becomes the answer of the
   * requests left out alone (503: they were not settled; trying again is safe), while those the
   * statement settled keep their answers.
   */
  private async statesAfterCommit(ids: string[]): Promise<Map<string, MessageState> | UnavailableError> {
    if (ids.length === 0) return new Map();
    try {
      return new Map((await messageFindState(this.deps.pool, ids)).map((state) => [state.id, state]));
    } catch {
      return new UnavailableError('The message was not settled, and why could not be read; try again', DATABASE_RETRY_AFTER_SECONDS);
    }
  }
}

/** Tells this instance (and, through it, the others) what left a lease: requeued, or dead. */
export function announceLeftLease(changes: Changes, rows: ReturnedRow[], requeued: 'NACKED' | 'REDELIVERED', died: 'NACKED_DEAD' | 'EXPIRED_DEAD'): void {
  const back = rows.filter((row) => row.status === 'PENDING');
  const dead = rows.filter((row) => row.status === 'DEAD');
  changes.committed([
    ...transitionsOf(
      requeued,
      back.map((row) => ({ queue: row.queue_name, id: row.id, availableAt: row.available_at, delayed: row.delayed })),
    ),
    ...transitionsOf(
      died,
      dead.map((row) => ({ queue: row.queue_name, id: row.id })),
    ),
  ]);
}

/** One span per message that left its lease (`nack`, or `expire` by the lease sweep): back in its queue, or dead. */
export function recordLeftLeaseSpans(rows: ReturnedRow[], name: 'nack' | 'expire', started: number): void {
  const left = rows.map((row) => ({
    id: row.id,
    queue_name: row.queue_name,
    trace: row.trace ?? null,
    attributes: { 'miniqueue.requeued': row.status === 'PENDING', 'miniqueue.dead_lettered': row.status === 'DEAD' },
  }));
  recordSpans(left, 'settle', name, started);
}
