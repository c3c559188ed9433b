import type { Queryable } from '../pool.js';
import type { Overflow } from './queue.js';
import { ADVANCE_GROUPS } from './orderingGroup.js';
import { COUNTED } from './queueCounts.js';
import { BY_ID_OF } from './messageRow.js';
import { USED } from './queueUsed.js';
import { BURY, ROUTED_RESULTS } from './messageDeath.js';

export interface BoundedQueueRow {
  name: string;
  topic_name: string;
  max_messages: number | null;
  max_bytes: number | null;
  overflow: Overflow;
}

/**
 * Locks the bounded queues bound to these topics (or named here) until the transaction ends, in
 * name order (two publishers never wait on each other in a cycle), and returns their bounds as the
 * lock found them (READ COMMITTED: the newest committed row). Every statement that adds to a
 * bounded queue takes this lock first and reads the queue's counts in a LATER statement (see
 * messagePublishBounds.ts): so additions to one bounded queue are serialised and each sees the
 * last one's counts. Removals (acks, deaths) take no lock: they only make room. FOR NO KEY UPDATE
 * does not conflict with the key-share locks that message rows' foreign keys take.
 */
export async function queueBoundsLock(db: Queryable, where: { topics?: string[]; queues?: string[]; all?: boolean }): Promise<BoundedQueueRow[]> {
  const { rows } = await db.query<BoundedQueueRow>({
    name: 'queue_bounds_lock',
    text: `SELECT name, topic_name, max_messages::float8 AS max_messages, max_bytes::float8 AS max_bytes, overflow FROM queue
            WHERE (topic_name = ANY($1::text[]) OR name = ANY($2::text[]) OR $3::boolean)
              AND (max_messages IS NOT NULL OR max_bytes IS NOT NULL)
            ORDER BY name FOR NO KEY UPDATE`,
    values: [where.topics ?? [], where.queues ?? [], where.all ?? false],
  });
  return rows;
}

export interface OverBoundRow {
  queue_name: string;
  max_messages: number | null;
  max_bytes: number | null;
}

/** Which of these queues hold more than their bounds now (counts as this statement sees them). */
export async function queueBoundsExceeded(db: Queryable, queues: string[]): Promise<OverBoundRow[]> {
  const { rows } = await db.query<OverBoundRow>({
    name: 'queue_bounds_exceeded',
    text: `SELECT q.name AS queue_name, q.max_messages::float8 AS max_messages, q.max_bytes::float8 AS max_bytes
             FROM queue q JOIN (${USED('k.queue_name = ANY($1::text[])')}) u ON u.queue_name = q.name
            WHERE u.n > coalesce(q.max_messages, u.n) OR u.b > coalesce(q.max_bytes, u.b)
            ORDER BY q.name`,
    values: [queues],
  });
  return rows;
}

/** Rows one trim looks at per queue at most; a queue still over its bound after them is trimmed again. */
export const TRIM_BATCH = 1_000;

/**
 * Makes room in queues over their bounds (dead_letter_oldest / drop_oldest): the oldest PENDING
 * messages (the ones consumers would get next: the claim index's order) leave until the queue is
 * within both bounds, to message_dead with reason OVERFLOW or deleted. UNACKED messages never
 * leave (a consumer holds them), nor BLOCKED ones (behind their ordering key's head, which goes
 * first and lets the next one be claimed, ADVANCE_GROUPS). Rows a claim holds right now are
 * skipped (SKIP LOCKED): they become UNACKED and the next ones go instead.
 * Run after the publish in the transaction that holds queueBoundsLock(), so the counts it reads
 * include that publish and no other addition.
 */
const TRIM = `WITH used AS (${USED('k.queue_name = ANY($1::text[])')}),
     extra AS (
       SELECT q.name, q.overflow, greatest(u.n - coalesce(q.max_messages, u.n), 0) AS n, greatest(u.b - coalesce(q.max_bytes, u.b), 0) AS b
         FROM queue q JOIN used u ON u.queue_name = q.name
        WHERE u.n > coalesce(q.max_messages, u.n) OR u.b > coalesce(q.max_bytes, u.b)),
     oldest AS (
       SELECT e.name, e.overflow, e.n AS extra_n, e.b AS extra_b, c.id, c.bytes,
              row_number() OVER w AS k, sum(c.bytes) OVER w - c.bytes AS before
         FROM extra e CROSS JOIN LATERAL (
                SELECT m.id, octet_length(m.payload) AS bytes, m.available_at, m.seq FROM message m
                 WHERE m.queue_name = e.name AND m.status = 'PENDING'
                 ORDER BY m.available_at, m.seq LIMIT CASE WHEN e.b > 0 THEN $2 ELSE least(e.n, $2) END
                   FOR UPDATE OF m SKIP LOCKED) c
       WINDOW w AS (PARTITION BY e.name ORDER BY c.available_at, c.seq)),
     doomed AS (SELECT id, overflow FROM oldest WHERE k <= extra_n OR before < extra_b),
     gone AS (
       DELETE FROM message m USING doomed d WHERE ${BY_ID_OF('doomed')} AND m.id = d.id
       RETURNING m.*, d.overflow, octet_length(m.payload) AS bytes),
     ${BURY({
       from: 'gone',
       where: "g.overflow = 'dead_letter_oldest'",
       reason: "'OVERFLOW'",
       nackReason: 'g.nack_reason',
       detail: "'dead-lettered to make room in a full queue'",
     })},
     ${ADVANCE_GROUPS('gone')},
     ${COUNTED({ from: 'gone', pending: -1, bytes: -1 }, { from: 'buried', dead: 1 }, { from: 'routed', pending: 1, bytes: 1 })}
     SELECT (SELECT count(*) FROM gone)::int AS removed,
            (SELECT count(*) FROM oldest)::int AS looked,
            (SELECT count(*) FROM extra)::int AS over,
            (SELECT coalesce(json_agg(json_build_object('id', u.id, 'queue_name', u.queue_name, 'available_at', u.available_at,
                                                        'delayed', u.delayed, 'topic_name', u.topic_name, 'first_copy', u.first_copy)), '[]')
               FROM (SELECT id, queue_name, available_at, delayed, NULL::text AS topic_name, NULL::boolean AS first_copy FROM unblocked
                     UNION ALL SELECT id, queue_name, available_at, delayed, topic_name, first_copy FROM (${ROUTED_RESULTS}) rr) u) AS unblocked`;

export interface TrimmedRow {
  /** Messages that left (dead-lettered or dropped). */
  removed: number;
  /** Candidates read: when it is a full batch for some queue, that queue may still be over. */
  looked: number;
  /** Queues that were over their bounds. */
  over: number;
  /**
   * Ordering-key heads made claimable because the one before them left, and dead letters routed to
   * a dead-letter topic's queues (those with their `topic_name`, and `first_copy` as in ROUTED_RESULTS).
   */
  unblocked: { id: string; queue_name: string; available_at: string; delayed: boolean; topic_name: string | null; first_copy: boolean | null }[];
}

/** One pass of TRIM over these queues. */
export async function queueOverflowTrim(db: Queryable, queues: string[]): Promise<TrimmedRow> {
  const { rows } = await db.query<TrimmedRow>({ name: 'queue_overflow_trim', text: TRIM, values: [queues, TRIM_BATCH] });
  return rows[0];
}
