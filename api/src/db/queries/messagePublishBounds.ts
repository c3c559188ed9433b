/**
 * The pieces that make a publish statement bounded-aware (migration 0015), spliced into the
 * statements of messagePublish.ts.
 *
 * A plain publish only reads whether a queue it goes to is bounded (`BOUNDED_GUARD`, a column of
 * the queue row it joins anyway) and leaves such items out, so a broker whose cache of bounded
 * topics is stale (another instance just bounded a queue) never stores past a bound: it publishes
 * those items again through the bounded statement.
 *
 * The bounded statement runs after queueBoundsLock() took its queues' rows in the same
 * transaction, in a statement of its own: under READ COMMITTED each statement takes its snapshot
 * when it starts, so only a statement started after the lock was granted sees the counts that
 * the previous holder committed. Reading the counts in the statement that takes the lock would
 * read them as they were before it waited, and 32 publishers would all find the same room.
 *
 * In the bounded statement every bound queue's copy is first a `candidate`; `copy` is what is
 * left once the reject_copy queues without room have refused theirs (`refused_copy`).
 */
import { USED } from './queueUsed.js';

/** Plain statements: the copy goes to a bounded queue. */
export const BOUNDED_GUARD = '(q.max_messages IS NOT NULL OR q.max_bytes IS NOT NULL) AS bounded';

/** Bounded statements: what each copy needs to know about its queue's bounds (`rejects`: it may be refused, `copy_only`: alone). */
export const BOUNDED_COPY = `false AS bounded,
              (q.max_messages IS NOT NULL OR q.max_bytes IS NOT NULL) AND q.overflow IN ('reject_publish', 'reject_copy') AS rejects,
              q.overflow = 'reject_copy' AS copy_only, q.max_messages, q.max_bytes, octet_length(i.payload) AS bytes`;

/**
 * `refused_copy`: the copies a reject_copy queue without room refuses (the rest of the item goes
 * on; a copy that lacks a required ordering key stays, and the item is refused for that); `copy`: the candidates left. `full_item`: the items refused whole, with the first queue
 * that refused: one that did not fit in a reject_publish queue, or one whose every copy was
 * refused (stored nowhere, it is refused as a publish, so its producer notices).
 * Items are admitted in order: each copy counts what the queue holds (its counters, exact at each
 * commit) plus every earlier copy of this statement to the same queue, stored or not, so a
 * statement never admits past the bound (it may refuse a small item after a large one that did
 * not fit).
 */
export const FULL = `used AS (${USED('k.queue_name IN (SELECT queue FROM candidate WHERE rejects)')}),
     fit AS (
       SELECT c.ord, c.queue, c.copy_only, c.refuses, c.max_messages, c.max_bytes,
              (c.max_messages IS NOT NULL AND u.n + count(*) OVER w > c.max_messages)
              OR (c.max_bytes IS NOT NULL AND u.b + sum(c.bytes) OVER w > c.max_bytes) AS too_full
         FROM candidate c JOIN used u ON u.queue_name = c.queue
        WHERE c.rejects
       WINDOW w AS (PARTITION BY c.queue ORDER BY c.ord)),
     refused_copy AS (SELECT ord, queue, max_messages, max_bytes FROM fit WHERE too_full AND copy_only AND NOT refuses),
     copy AS (
       SELECT c.* FROM candidate c
        WHERE NOT EXISTS (SELECT 1 FROM refused_copy r WHERE r.ord = c.ord AND r.queue = c.queue)),
     full_item AS (
       SELECT DISTINCT ON (ord) ord, queue, max_messages, max_bytes
         FROM (SELECT ord, queue, max_messages, max_bytes, 0 AS rank FROM fit WHERE too_full AND NOT copy_only
               UNION ALL
               SELECT r.ord, r.queue, r.max_messages, r.max_bytes, 1 FROM refused_copy r
                WHERE NOT EXISTS (SELECT 1 FROM copy c WHERE c.ord = r.ord)) f
        ORDER BY ord, rank, queue),
     refused_of_item AS (
       SELECT ord, json_agg(json_build_object('queue', queue, 'max_messages', max_messages::float8, 'max_bytes', max_bytes::float8)
                            ORDER BY queue) AS refused
         FROM refused_copy GROUP BY ord),`;

/** Bounded statements: per item, the queue it did not fit in (NULL: it fits), and the copies refused alone (NULL: none). */
export const FULL_OF_ITEM = `false AS bounded, fu.queue AS full_queue, fu.max_messages::float8 AS full_max_messages,
              fu.max_bytes::float8 AS full_max_bytes, rc.refused AS refused_copies`;

/** Bounded statements: the joins FULL_OF_ITEM reads. */
export const FULL_JOINS = ' LEFT JOIN full_item fu ON fu.ord = i.ord LEFT JOIN refused_of_item rc ON rc.ord = i.ord';

/**
 * Bounded statements: a claimed key remembers the copies refused alone, stamped with the claim's
 * time; a plain statement that claims the key again later leaves them with an older stamp than the
 * key's created_at, which idempotencyFind() then does not read.
 */
export const CLAIM_REFUSED = {
  columns: ', refused, refused_at',
  values: ', p.refused_copies::jsonb, now()',
  set: ', refused = EXCLUDED.refused, refused_at = now()',
};
