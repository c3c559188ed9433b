/**
 * Bounded queues (max_messages / max_bytes, migration 0015): what every path that adds messages to
 * a queue does so that the bound holds exactly, across instances and connections.
 *
 * The count is the queue's counters (pending + unacked, bytes: queue_counter), kept by every
 * statement that moves messages, never counted per publish. An addition to a bounded queue (a
 * publish, a dead-letter replay, a history replay) takes the queue's row lock first and reads the
 * counts in a later statement of the same transaction, whose snapshot then holds everything the
 * previous holder committed (see db/queries/messagePublishBounds.ts). Removals take no lock.
 *
 * Publishes to topics without a bounded queue never come here: this instance remembers which
 * topics have one (`BoundedTopics`), and a plain publish statement that meets a bounded queue
 * anyway (bounded on another instance since) stores nothing of that item and says so, and the
 * item is published again through here.
 */
import { RateLimitedError } from '../errors.js';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { messageTableLockForInsert } from '../db/queries/historyReplay.js';
import { queueBoundsExceeded, queueBoundsLock, queueOverflowTrim, TRIM_BATCH, type TrimmedRow } from '../db/queries/queueBounds.js';
import type { RefusedCopyRow } from '../db/queries/messagePublish.js';
import type { Overflow } from '../db/queries/queue.js';

/** What a refused publisher is told to wait: a full queue makes room as fast as its consumers ack. */
export const QUEUE_FULL_RETRY_AFTER_SECONDS = 1;

/** 429 queue_full, naming the queue and the bounds it has. */
export function queueFull(
  queue: string,
  maxMessages: number | null | undefined,
  maxBytes: number | null | undefined,
  what: 'publish' | 'replay' = 'publish',
): RateLimitedError {
  return new RateLimitedError(
    `Queue ${queue} is full (${boundsOf(maxMessages, maxBytes)}); nothing of this ${what} was stored`,
    QUEUE_FULL_RETRY_AFTER_SECONDS,
    'queue_full',
  );
}

/** A copy of a publish that a full reject_copy queue refused, as the publish's answer names it. */
export interface RefusedCopy {
  queue: string;
  code: 'queue_full';
  message: string;
}

/** The refused copies of a stored publish; undefined when none was (the answer then has no `refused`). */
export function refusedCopies(rows: RefusedCopyRow[] | null | undefined): RefusedCopy[] | undefined {
  if (!rows || rows.length === 0) return undefined;
  return rows.map((row) => ({
    queue: row.queue,
    code: 'queue_full',
    message: `Queue ${row.queue} is full (${boundsOf(row.max_messages, row.max_bytes)}); its copy was not stored, the other queues got theirs`,
  }));
}

const boundsOf = (maxMessages: number | null | undefined, maxBytes: number | null | undefined) =>
  [
    maxMessages === null || maxMessages === undefined ? undefined : `max_messages ${maxMessages}`,
    maxBytes === null || maxBytes === undefined ? undefined : `max_bytes ${maxBytes}`,
  ]
    .filter((bound) => bound !== undefined)
    .join(', ');

/** Overflows under which a queue without room refuses (all of the publish, or its own copy) rather than making room. */
const refuses = (overflow: Overflow) => overflow === 'reject_publish' || overflow === 'reject_copy';

/** Topics with at least one bounded queue, as far as this instance has seen. */
export class BoundedTopics {
  private readonly topics = new Set<string>();

  has(topic: string): boolean {
    return this.topics.size > 0 && this.topics.has(topic);
  }

  /** A plain publish to this topic met a bounded queue. */
  add(topic: string): void {
    this.topics.add(topic);
  }

  /** A bounded publish locked the bounded queues of these topics: a topic with none has none now. */
  update(topics: string[], boundedTopics: Set<string>): void {
    for (const topic of topics) {
      if (boundedTopics.has(topic)) this.topics.add(topic);
      else this.topics.delete(topic);
    }
  }
}

export type Unblocked = TrimmedRow['unblocked'];

/**
 * In one transaction: locks the bounded queues of `topics`, runs `publish`, then makes room in
 * the queues whose overflow is dead_letter_oldest or drop_oldest. reject_publish and reject_copy
 * queues are the publish statement's own to refuse (the whole item, or only their copy).
 */
export async function withinBounds<T>(
  pool: Pool,
  topics: string[],
  publish: (tx: Queryable) => Promise<T>,
): Promise<{ result: T; boundedTopics: Set<string>; unblocked: Unblocked }> {
  return withTransaction(pool, async (tx) => {
    // The table lock first, as a queue deletion takes it: the two wait for each other, never deadlock.
    await messageTableLockForInsert(tx);
    const locked = await queueBoundsLock(tx, { topics });
    const result = await publish(tx);
    const making = locked.filter((queue) => !refuses(queue.overflow)).map((queue) => queue.name);
    const unblocked = making.length > 0 ? await makeRoom(tx, making) : [];
    return { result, boundedTopics: new Set(locked.map((queue) => queue.topic_name)), unblocked };
  });
}

async function makeRoom(tx: Queryable, queues: string[]): Promise<Unblocked> {
  const unblocked: Unblocked = [];
  for (;;) {
    const pass = await queueOverflowTrim(tx, queues);
    unblocked.push(...pass.unblocked);
    if (pass.removed === 0 || pass.looked < TRIM_BATCH) return unblocked;
  }
}

/**
 * A replay (dead letters or history) into queues that may be bounded: it never makes room (it
 * does not push live messages out to bring old ones back), so when what it adds does not fit,
 * it is refused with queue_full and nothing of it is stored. `queues`: the queues it may add to,
 * or undefined for any (every bounded queue is locked then).
 */
export async function replayWithinBounds<T>(
  pool: Pool,
  queues: string[] | undefined,
  replay: (tx: Queryable) => Promise<{ rows: T; queues: string[] }>,
): Promise<T> {
  return withTransaction(pool, async (tx) => {
    await messageTableLockForInsert(tx);
    const bounded = await lockForReplay(tx, queues);
    const { rows, queues: added } = await replay(tx);
    await refuseOverflow(tx, bounded, added);
    return rows;
  });
}

/** In a replay's transaction, after the message table's lock: locks the bounded queues it may add to. */
export async function lockForReplay(tx: Queryable, queues: string[] | undefined): Promise<Set<string>> {
  const locked = await queueBoundsLock(tx, queues === undefined ? { all: true } : { queues });
  return new Set(locked.map((queue) => queue.name));
}

/** Throws queue_full (the transaction rolls back) when a bounded queue the replay added to holds more than it may. */
export async function refuseOverflow(tx: Queryable, bounded: Set<string>, added: string[]): Promise<void> {
  const touched = [...new Set(added)].filter((queue) => bounded.has(queue));
  if (touched.length === 0) return;
  const [over] = await queueBoundsExceeded(tx, touched);
  if (over) throw queueFull(over.queue_name, over.max_messages, over.max_bytes, 'replay');
}
