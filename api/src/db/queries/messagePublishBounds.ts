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
 */
import { USED } from './queueUsed.js';

/** Plain statements: the copy goes to a bounded queue. */
export const BOUNDED_GUARD = '(q.max_messages IS NOT NULL OR q.max_bytes IS NOT NULL) AS bounded';

/** Bounded statements: what each copy needs to know about its queue's bounds. */
export const BOUNDED_COPY = `false AS bounded, (q.max_messages IS NOT NULL OR q.max_bytes IS NOT NULL) AND q.overflow = 'reject_publish' AS rejects,
              q.max_messages, q.max_bytes, octet_length(i.payload) AS bytes`;

/**
 * `full_item`: the items that do not fit in a reject_publish queue, with the first such queue.
 * Items are admitted in order: each copy counts what the queue holds (its counters, exact at each
 * commit) plus every earlier copy of this statement to the same queue, stored or not, so a
 * statement never admits past the bound (it may refuse a small item after a large one that did
 * not fit).
 */
export const FULL = `used AS (${USED('k.queue_name IN (SELECT queue FROM copy WHERE rejects)')}),
     fit AS (
       SELECT c.ord, c.queue, c.max_messages, c.max_bytes,
              (c.max_messages IS NOT NULL AND u.n + count(*) OVER w > c.max_messages)
              OR (c.max_bytes IS NOT NULL AND u.b + sum(c.bytes) OVER w > c.max_bytes) AS too_full
         FROM copy c JOIN used u ON u.queue_name = c.queue
        WHERE c.rejects
       WINDOW w AS (PARTITION BY c.queue ORDER BY c.ord)),
     full_item AS (
       SELECT DISTINCT ON (ord) ord, queue, max_messages, max_bytes FROM fit WHERE too_full ORDER BY ord, queue),`;

/** Bounded statements: per item, the queue it did not fit in (NULL: it fits). */
export const FULL_OF_ITEM = `false AS bounded, fu.queue AS full_queue, fu.max_messages::float8 AS full_max_messages,
              fu.max_bytes::float8 AS full_max_bytes`;
