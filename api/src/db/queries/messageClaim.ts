import type { Queryable } from '../pool.js';
import { BY_ID_OF, MESSAGE_COLUMNS, NOT_EXPIRED, type MessageRow } from './messageRow.js';
import { COUNTED } from './queueCounts.js';

/**
 * The taking of a claim, from the CTEs `wanted` (queue, n: how many to take, prioritized: the
 * queue has a max_priority) and `req` (each request's ref, holder, consumer, lim and its position
 * `upto`): the CTE `claimed`, the rows as they now are. Shared with the gated claim
 * (messageClaimGated.ts), which decides `wanted` otherwise.
 *
 * Each queue reads one of two indexes: the claim index (oldest first), or for a prioritized queue
 * the priority claim index (highest priority first, then oldest; migration 0021). Which one is a
 * condition on `w` alone, which PostgreSQL checks once per queue before running either branch
 * (a one-time filter), so a queue without priorities reads what it read before.
 *
 * `fair` (the gated claim only; `wanted` then says `fair` too, and the CTE `fair_keys` lists each
 * fair queue's keys in turn with their `room` and `visit` order): a fair queue takes up to its room
 * from each key's head instead, and hands out every key's first message before any key's second
 * (`turn`, then `visit`): round-robin between keys within one claim (migration 0022).
 *
 * A request with `max_bytes` (a stream's, bounded by what its output may still take) takes its
 * rows in order only while the payloads before each come to less than that: always one, and then
 * no more than about `max_bytes`. The rows it leaves are not claimed (they stay PENDING for the next
 * claim). Sizes are read as octet_length, from the tuple's header without detoasting the payload;
 * the cost is one window sum over the assigned rows per statement.
 */
export const CLAIM_TAKE = ({ fair }: { fair: boolean }) => `picked AS (
       SELECT w.queue, p.id, p.bytes,${fair ? ' p.group_key,' : ''}
              row_number() OVER (PARTITION BY w.queue ORDER BY ${fair ? 'p.turn, p.visit, ' : ''}p.priority DESC NULLS LAST, p.available_at, p.seq) AS n
         FROM wanted w CROSS JOIN LATERAL (
           -- Each branch a subquery of its own: FOR UPDATE is not allowed on a branch of a UNION.
           SELECT * FROM (
             SELECT id, priority, available_at, seq, octet_length(payload) AS bytes${FAIR_NONE(fair)} FROM message x
              WHERE NOT w.prioritized${fair ? ' AND NOT w.fair' : ''} AND queue_name = w.queue AND status = 'PENDING' AND available_at <= now() AND ${NOT_EXPIRED('x')}
              ORDER BY available_at, seq
              LIMIT w.n
                FOR UPDATE SKIP LOCKED) oldest
           UNION ALL
           SELECT * FROM (
             SELECT id, priority, available_at, seq, octet_length(payload) AS bytes${FAIR_NONE(fair)} FROM message x
              WHERE w.prioritized AND queue_name = w.queue AND status = 'PENDING' AND priority IS NOT NULL
                AND available_at <= now() AND ${NOT_EXPIRED('x')}
              ORDER BY priority DESC, available_at, seq
              LIMIT w.n
                FOR UPDATE SKIP LOCKED) highest${fair ? FAIR_BRANCH : ''}) p),
     positioned AS (
       SELECT p.id, q.ref, q.holder, q.consumer, q.max_bytes, sum(p.bytes) OVER (PARTITION BY q.ref ORDER BY p.n) - p.bytes AS bytes_before
         FROM picked p JOIN req q ON q.queue = p.queue AND p.n > q.upto - q.lim AND p.n <= q.upto),
     assigned AS (
       SELECT id, ref, holder, consumer FROM positioned WHERE max_bytes IS NULL OR bytes_before < max_bytes),
     claimed AS (
       UPDATE message m
          SET status = 'UNACKED', holder = a.holder, consumer_id = a.consumer, unacked_at = now(),
              lease_expires_at = now() + make_interval(secs => q.ack_timeout_seconds)
         FROM assigned a, queue q
        WHERE ${BY_ID_OF('assigned')} AND m.id = a.id AND q.name = m.queue_name
       RETURNING a.ref, ${MESSAGE_COLUMNS}, m.status, m.lease_expires_at)`;

/** The fair branch's own columns, as the other branches give them: no turn, no key. */
const FAIR_NONE = (fair: boolean) => (fair ? ', 1::bigint AS turn, 0 AS visit, NULL::text AS group_key' : '');

/**
 * Each visited key with room: its oldest claimable messages, up to its room, numbered (`turn`).
 * That the planner reads the fair claim index here, and not the plain one filtered by key, rests on
 * the n_distinct that migration 0022 sets on message.group_key (why, and what it cost without).
 */
const FAIR_BRANCH = `
           UNION ALL
           SELECT t.id, NULL::smallint, t.available_at, t.seq, t.bytes, t.turn, k.visit, k.group_key
             FROM fair_keys k CROSS JOIN LATERAL (
               SELECT h.*, row_number() OVER (ORDER BY h.available_at, h.seq) AS turn FROM (
                 SELECT id, available_at, seq, octet_length(payload) AS bytes FROM message x
                  WHERE queue_name = k.queue AND group_key = k.group_key AND status = 'PENDING'
                    AND available_at <= now() AND ${NOT_EXPIRED('x')}
                  ORDER BY available_at, seq
                  LIMIT least(k.room, w.n)
                    FOR UPDATE SKIP LOCKED) h) t
            WHERE w.fair AND k.queue = w.queue AND k.room > 0`;

/** The order a claim hands messages out in: highest priority first (prioritized queues), then oldest. */
export const inDeliveryOrder = (a: MessageRow, b: MessageRow): number =>
  (b.priority ?? -1) - (a.priority ?? -1) || a.available_at.getTime() - b.available_at.getTime() || a.seq - b.seq;

export interface ClaimItem {
  queue: string;
  /** The credential's id (plus instance): what the lease is fenced on. */
  holder: string;
  /** The same, as people read it. */
  consumerId: string;
  limit: number;
  /** Payload bytes the claim may bring back at most (one message at least); undefined: no bound. */
  maxBytes?: number;
}

/**
 * Claims for any number of requests, on any queues, in ONE statement: each queue's next available
 * PENDING messages are handed out to its requests in request order, up to each one's limit. SKIP
 * LOCKED lets competing statements take different rows instead of waiting on one another; the
 * lease runs for the queue's ack timeout. The claim index (queue, available_at, seq) WHERE PENDING
 * finds the head of each queue without touching the rest of a long backlog. One statement for many
 * consumers also means fewer statements racing for the same head rows: a claimer skips the rows
 * locked by the others, so lone claims by N consumers at once skip O(N²) rows between them.
 *
 * Its commit does not wait for the WAL flush (synchronous_commit off for this statement alone): a
 * claim promises nothing durable. Lost in a crash, it leaves the message PENDING, as an expired
 * lease would, and it is delivered again (at least once); the holder's ack then fails, and an ack
 * that did commit flushed the claim before it (WAL is written in order). Waiting for the flush put
 * a second fsync between a publish and its delivery: the same statement took 0.43 ms waiting and
 * 0.20 ms not, one connection, 500 rounds, on this machine's disk.
 */
export async function messageClaim(db: Queryable, items: ClaimItem[]): Promise<(MessageRow & { ref: number })[]> {
  const { rows } = await db.query<MessageRow & { ref: number }>({
    name: 'message_claim',
    text: `WITH r AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, queue text, holder text, consumer text, lim int, max_bytes bigint)),
     -- Each request takes the positions (upto - lim, upto] of its queue's claimed rows.
     req AS (SELECT r.*, sum(r.lim) OVER (PARTITION BY r.queue ORDER BY r.ref) AS upto FROM r),
     -- A queue with a delivery gate is left to message_claim_gated (messageClaimGated.ts).
     wanted AS (
       SELECT req.queue, max(req.upto) AS n, bool_or(g.max_priority IS NOT NULL) AS prioritized
         FROM req JOIN queue g ON g.name = req.queue WHERE NOT g.gated GROUP BY req.queue),
     ${CLAIM_TAKE({ fair: false })},
     ${COUNTED({ from: 'claimed', pending: -1, unacked: 1 })},
     -- This commit does not wait for its WAL flush (see the comment above).
     no_flush_wait AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)
     SELECT c.* FROM claimed c WHERE (SELECT setting FROM no_flush_wait) IS NOT NULL`,
    values: [
      JSON.stringify(
        items.map((item, ref) => ({ ref, queue: item.queue, holder: item.holder, consumer: item.consumerId, lim: item.limit, max_bytes: item.maxBytes })),
      ),
    ],
  });
  return rows.sort(inDeliveryOrder);
}

/**
 * After an empty claim: does the queue exist, does it have a delivery gate (then the plain claim
 * left it alone), and when does its next PENDING message become available?
 */
export async function messageNextAvailable(db: Queryable, queue: string): Promise<{ queueExists: boolean; gated: boolean; nextAvailableAt: Date | null }> {
  const { rows } = await db.query<{ found: boolean; gated: boolean | null; next: Date | null }>({
    name: 'message_next_available',
    text: `SELECT EXISTS (SELECT 1 FROM queue WHERE name = $1) AS found,
            (SELECT gated FROM queue WHERE name = $1) AS gated,
            (SELECT available_at FROM message x WHERE queue_name = $1 AND status = 'PENDING' AND ${NOT_EXPIRED('x')}
              ORDER BY available_at, seq LIMIT 1) AS next`,
    values: [queue],
  });
  return { queueExists: rows[0].found, gated: rows[0].gated === true, nextAvailableAt: rows[0].next };
}

/** A message its holder holds: its id, and its retry count when claimed (what fences its release: messageRelease.ts). */
export interface HeldMessage {
  id: string;
  retryCount: number;
}

/** The messages of these ids that this holder still holds, as a claim returns them (a resumed stream sends them again). */
export async function messageHeldBy(db: Queryable, ids: string[], holder: string): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>({
    name: 'message_held_by',
    text: `SELECT ${MESSAGE_COLUMNS}, m.status, m.lease_expires_at FROM message m
      WHERE m.id = ANY($1::uuid[]) AND m.status = 'UNACKED' AND m.holder = $2
      ORDER BY m.available_at, m.seq`,
    values: [ids, holder],
  });
  return rows;
}
