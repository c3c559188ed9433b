import { GROUP_KEY } from './groupKey.js';

/**
 * Where a dead message goes (migration 0019), spliced into every statement that dead-letters
 * (LEAVE_LEASE in messageSettle.ts: nacks, exhausted retries, expired leases; the overflow trim in
 * queueBounds.ts; the expiry sweep in messageTtl.ts), so the death and its routed copies commit
 * together or not at all.
 *
 * A queue with a `dead_letter_topic` publishes each dead letter there, fanned out to the queues
 * bound to it (whose filter matches) as ordinary PENDING messages, with the headers
 * `miniqueue-death-queue`, `-reason`, `-time` and `-count` (how many deaths along every hop so
 * far, like RabbitMQ's x-death) and `-copies-left`. It stays in the queue's own message_dead too
 * when the queue says `dead_letter_keep`, when no queue of the topic took it, past MAX_DEATH_HOPS
 * (a loop of dead-letter topics is cut there), or past its allowance of copies. Queues that require an ordering key or are bounded take no
 * routed dead letter: a copy has no key, and must never take a queue past its bound.
 */

/** Past this many deaths, a dead letter is no longer routed: it stays in the dead letters of the queue it died in. */
export const MAX_DEATH_HOPS = 10;

/**
 * At most this many routed copies come of one message, across every hop. The hop limit bounds how
 * deep a loop of dead-letter topics goes, not how wide: with two queues on each topic of a loop
 * the copies double at every hop (2^10 at the tenth). So a message starts with this allowance, and
 * a death routed to k queues spends k of it and shares what is left evenly between the k copies
 * (`miniqueue-death-copies-left`, rounded down); a death whose allowance is smaller than its
 * fan-out is not routed at all and stays in its queue's dead letters. A message and all its
 * descendants therefore make at most this many copies, whatever the fan-out. The API refuses
 * cycles of dead-letter topics (broker/deadLetterCycles.ts); this bounds any that exist anyway.
 */
export const MAX_DEAD_LETTER_COPIES = 100;

export const DEATH_HEADERS = {
  queue: 'miniqueue-death-queue',
  reason: 'miniqueue-death-reason',
  time: 'miniqueue-death-time',
  count: 'miniqueue-death-count',
  copiesLeft: 'miniqueue-death-copies-left',
} as const;

export interface DeathOf {
  /** A CTE of the rows that left the live table (m.* and bytes). */
  from: string;
  /** Which of them die (the rest left otherwise, e.g. dropped). */
  where?: string;
  /** SQL, over `g` (a row of `from`): the dead reason, the nack reason kept, the words of dead_detail. */
  reason: string;
  nackReason: string;
  detail: string;
}

/**
 * CTEs `death` (the dying rows with their queue's routing), `fanout` (one row per dead letter and
 * queue of its dead-letter topic), `route` (those within their allowance of copies), `routed` (the copies stored, RETURNING queue_name, bytes and the
 * claimability columns) and `buried` (the rows kept in message_dead, RETURNING queue_name). The
 * statement counts `routed` (+1 pending, + bytes) and `buried` (+1 dead), and adds ROUTED_RESULTS.
 */
export const BURY = (d: DeathOf) => `death AS (
     SELECT g.*, ${d.reason} AS death_reason, ${d.nackReason} AS death_nack_reason, ${d.detail} AS death_detail,
            q.dead_letter_topic AS dlt, q.dead_letter_keep AS keep,
            coalesce(CASE WHEN g.headers->>'${DEATH_HEADERS.count}' ~ '^[0-9]{1,4}$' THEN (g.headers->>'${DEATH_HEADERS.count}')::int END, 0) + 1 AS hops,
            coalesce(CASE WHEN g.headers->>'${DEATH_HEADERS.copiesLeft}' ~ '^[0-9]{1,4}$' THEN (g.headers->>'${DEATH_HEADERS.copiesLeft}')::int END,
                     ${MAX_DEAD_LETTER_COPIES}) AS allowance
       FROM ${d.from} g JOIN queue q ON q.name = g.queue_name${d.where ? ` WHERE ${d.where}` : ''}),
   fanout AS MATERIALIZED (
     SELECT d.id AS source, t.name AS queue, d.dlt, d.payload, x.headers, now() + make_interval(secs => t.message_ttl_seconds) AS expires_at,
            d.allowance, count(*) OVER (PARTITION BY d.id) AS copies,
            -- As a publish gives it (messagePublish.ts PRIORITY): the dead message's, in a queue with priorities.
            CASE WHEN t.max_priority IS NOT NULL THEN least(coalesce(d.priority, 0), t.max_priority) END AS priority,
            -- And its group in a fair queue (messagePublish.ts GROUP_KEY): the dead message's group, else its ordering key.
            ${GROUP_KEY('t', 'd.group_key', 'd.ordering_key')} AS group_key
       FROM death d
      CROSS JOIN LATERAL (
        SELECT d.headers || jsonb_build_object('${DEATH_HEADERS.queue}', d.queue_name, '${DEATH_HEADERS.reason}', d.death_reason,
                                               '${DEATH_HEADERS.time}', to_json(now()) #>> '{}', '${DEATH_HEADERS.count}', d.hops::text) AS headers) x
       JOIN queue t ON t.topic_name = d.dlt AND NOT t.require_ordering_key AND t.max_messages IS NULL AND t.max_bytes IS NULL
                   AND (t.filter IS NULL OR miniqueue_filter_matches(t.filter, x.headers))
      WHERE d.dlt IS NOT NULL AND d.hops <= ${MAX_DEATH_HOPS}),
   route AS MATERIALIZED (
     -- Each copy's id is made here, so that ROUTED_RESULTS can tell the first copy of each dead
     -- letter (one publish to the dead-letter topic) from the others (copies to its other queues).
     SELECT miniqueue_uuidv7() AS id, row_number() OVER (PARTITION BY f.source ORDER BY f.queue) = 1 AS first_copy,
            f.source, f.queue, f.dlt, f.payload, f.expires_at, f.priority, f.group_key,
            f.headers || jsonb_build_object('${DEATH_HEADERS.copiesLeft}', ((f.allowance - f.copies) / f.copies)::text) AS headers
       FROM fanout f
      WHERE f.copies <= f.allowance),
   routed AS (
     INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at, expires_at, priority, group_key)
     SELECT r.id, r.queue, r.dlt, r.payload, r.headers, 'PENDING', now(), now(), r.expires_at, r.priority, r.group_key
       FROM route r ORDER BY r.source, r.queue
     RETURNING id, queue_name, topic_name, octet_length(payload) AS bytes, to_json(available_at) #>> '{}' AS available_at, false AS delayed),
   buried AS (
     INSERT INTO message_dead (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
                               available_at, consumer_id, unacked_at, dead_at, dead_reason, nack_reason, dead_detail, ordering_key, expires_at, priority,
                               group_key)
     SELECT d.id, d.seq, d.queue_name, d.topic_name, d.payload, d.headers, d.retry_count, d.published_at,
            d.available_at, d.consumer_id, d.unacked_at, now(), d.death_reason, d.death_nack_reason, d.death_detail, d.ordering_key, d.expires_at, d.priority,
            d.group_key
       FROM death d
      WHERE d.keep OR NOT EXISTS (SELECT 1 FROM route r WHERE r.source = d.id)
     RETURNING queue_name)`;

/**
 * The copies of `routed` as result rows tagged `routed` (id, queue_name, available_at, delayed,
 * and topic_name and first_copy: the first copy of each dead letter stands for its publish to the
 * dead-letter topic, counted as a publish is). RESULTS_BESIDE_ROUTED gives other results the same columns.
 */
export const ROUTED_RESULTS = `SELECT 'routed' AS kind, ro.id, ro.queue_name, ro.available_at, ro.delayed, ro.topic_name, rt.first_copy
       FROM routed ro JOIN route rt ON rt.id = ro.id`;

/** Result rows of five columns (kind, id, queue_name, available_at, delayed) with ROUTED_RESULTS' two more, as NULL. */
export const RESULTS_BESIDE_ROUTED = (results: string) => `SELECT *, NULL::text AS topic_name, NULL::boolean AS first_copy FROM (${results}) a`;
