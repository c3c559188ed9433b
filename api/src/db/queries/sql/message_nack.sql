-- message_nack: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, id uuid, holder text, queues text[], requeue boolean, delay int, reason text, counts boolean)),
     t AS (
       SELECT m.id, r.ref, r.delay, r.counts, (NOT r.requeue OR (r.counts AND m.retry_count >= q.max_retries)) AS dies,
              CASE WHEN NOT r.requeue THEN 'NACKED' ELSE 'RETRIES_EXHAUSTED' END AS kind, r.reason
         FROM message m JOIN r ON m.id = ANY (ARRAY(SELECT id FROM r)) AND m.id = r.id AND m.status = 'UNACKED' AND m.holder = r.holder
  AND (r.queues IS NULL OR m.queue_name = ANY (r.queues)) JOIN queue q ON q.name = m.queue_name
          FOR UPDATE OF m),
     back AS (
     UPDATE message m
        SET status = 'PENDING', retry_count = m.retry_count + CASE WHEN t.counts THEN 1 ELSE 0 END, available_at = now() + make_interval(secs => t.delay),
            holder = NULL, consumer_id = NULL, unacked_at = NULL, lease_expires_at = NULL, nack_reason = CASE WHEN t.counts THEN t.reason ELSE coalesce(t.reason, m.nack_reason) END
       FROM t WHERE m.id = ANY (ARRAY(SELECT id FROM t)) AND m.id = t.id AND NOT t.dies
     RETURNING t.ref, m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed),
   gone AS (DELETE FROM message m USING t WHERE m.id = ANY (ARRAY(SELECT id FROM t)) AND m.id = t.id AND t.dies RETURNING m.*, t.ref, t.kind, t.reason, octet_length(m.payload) AS bytes),
   death AS (
     SELECT g.*, g.kind AS death_reason, coalesce(g.reason, g.nack_reason) AS death_nack_reason, CASE g.kind
    WHEN 'NACKED' THEN coalesce(g.reason, 'nacked without requeue')
    WHEN 'RETRIES_EXHAUSTED' THEN 'retries exhausted after ' || g.retry_count + 1 || CASE WHEN g.retry_count + 1 = 1 THEN ' delivery' ELSE ' deliveries' END || coalesce(': ' || g.reason, '')
    ELSE 'lease expired ' || coalesce(g.expired_count, 0) + 1 || CASE WHEN coalesce(g.expired_count, 0) + 1 = 1 THEN ' time' ELSE ' times' END || ', retries exhausted after ' || g.retry_count + 1 || CASE WHEN g.retry_count + 1 = 1 THEN ' delivery' ELSE ' deliveries' END
         || coalesce('; last nack: ' || g.nack_reason, '')
  END AS death_detail,
            q.dead_letter_topic AS dlt, q.dead_letter_keep AS keep,
            coalesce(CASE WHEN g.headers->>'miniqueue-death-count' ~ '^[0-9]{1,4}$' THEN (g.headers->>'miniqueue-death-count')::int END, 0) + 1 AS hops,
            coalesce(CASE WHEN g.headers->>'miniqueue-death-copies-left' ~ '^[0-9]{1,4}$' THEN (g.headers->>'miniqueue-death-copies-left')::int END,
                     100) AS allowance
       FROM gone g JOIN queue q ON q.name = g.queue_name),
   fanout AS MATERIALIZED (
     SELECT d.id AS source, t.name AS queue, d.dlt, d.payload, x.headers, now() + make_interval(secs => t.message_ttl_seconds) AS expires_at,
            d.allowance, count(*) OVER (PARTITION BY d.id) AS copies,
            -- As a publish gives it (messagePublish.ts PRIORITY): the dead message's, in a queue with priorities.
            CASE WHEN t.max_priority IS NOT NULL THEN least(coalesce(d.priority, 0), t.max_priority) END AS priority,
            -- And its group in a fair queue (messagePublish.ts GROUP_KEY): the dead message's group, else its ordering key.
            CASE WHEN t.fairness = 'by_key' THEN coalesce(d.group_key, d.ordering_key, '') END AS group_key
       FROM death d
      CROSS JOIN LATERAL (
        SELECT d.headers || jsonb_build_object('miniqueue-death-queue', d.queue_name, 'miniqueue-death-reason', d.death_reason,
                                               'miniqueue-death-time', to_json(now()) #>> '{}', 'miniqueue-death-count', d.hops::text) AS headers) x
       JOIN queue t ON t.topic_name = d.dlt AND NOT t.require_ordering_key AND t.max_messages IS NULL AND t.max_bytes IS NULL
                   AND (t.filter IS NULL OR miniqueue_filter_matches(t.filter, x.headers))
      WHERE d.dlt IS NOT NULL AND d.hops <= 10),
   route AS MATERIALIZED (
     -- Each copy's id is made here, so that ROUTED_RESULTS can tell the first copy of each dead
     -- letter (one publish to the dead-letter topic) from the others (copies to its other queues).
     SELECT miniqueue_uuidv7() AS id, row_number() OVER (PARTITION BY f.source ORDER BY f.queue) = 1 AS first_copy,
            f.source, f.queue, f.dlt, f.payload, f.expires_at, f.priority, f.group_key,
            f.headers || jsonb_build_object('miniqueue-death-copies-left', ((f.allowance - f.copies) / f.copies)::text) AS headers
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
     RETURNING queue_name),
   departed AS (
     SELECT queue_name, ordering_key, count(*) AS n FROM gone WHERE ordering_key IS NOT NULL GROUP BY 1, 2),
   locked_groups AS (
     SELECT g.queue_name, g.ordering_key, d.n FROM ordering_group g
       JOIN departed d ON d.queue_name = g.queue_name AND d.ordering_key = g.ordering_key
      ORDER BY g.queue_name, g.ordering_key FOR UPDATE OF g),
   advanced AS (
     UPDATE ordering_group g
        SET live = g.live - l.n,
            stalled = g.live - l.n > 0 AND NOT EXISTS (
              SELECT 1 FROM message s
               WHERE s.queue_name = g.queue_name AND s.ordering_key = g.ordering_key
                 AND s.ordering_pos = g.next_pos - g.live + l.n)
       FROM locked_groups l
      WHERE g.queue_name = l.queue_name AND g.ordering_key = l.ordering_key
     RETURNING g.queue_name, g.ordering_key, g.next_pos - g.live AS head_pos, g.live, g.stalled),
   unblocked AS (
     UPDATE message m SET status = 'PENDING'
       FROM advanced a
      WHERE a.live > 0 AND m.queue_name = a.queue_name AND m.ordering_key = a.ordering_key
        AND m.ordering_pos = a.head_pos AND m.lease_expires_at IS NULL
     RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed),
   counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked, bytes)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked), sum(bytes)
       FROM (SELECT queue_name, 1 AS pending, -1 AS unacked, 0 AS dead, 0 AS acked, 0 AS bytes FROM back
       UNION ALL SELECT queue_name, 0 AS pending, -1 AS unacked, 0 AS dead, 0 AS acked, -1 * gone.bytes AS bytes FROM gone
       UNION ALL SELECT queue_name, 0 AS pending, 0 AS unacked, 1 AS dead, 0 AS acked, 0 AS bytes FROM buried
       UNION ALL SELECT queue_name, 1 AS pending, 0 AS unacked, 0 AS dead, 0 AS acked, 1 * routed.bytes AS bytes FROM routed) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked, bytes = k.bytes + EXCLUDED.bytes)
     SELECT 'own' AS kind, ref, id, queue_name, 'PENDING' AS status, available_at, delayed, NULL::text AS topic_name, NULL::boolean AS first_copy FROM back
  UNION ALL
  SELECT 'own', ref, id, queue_name, 'DEAD', NULL, false, NULL, NULL FROM gone
  UNION ALL
  SELECT kind, NULL, id, queue_name, NULL, available_at, delayed, topic_name, first_copy
    FROM (SELECT *, NULL::text AS topic_name, NULL::boolean AS first_copy FROM (SELECT 'unblocked' AS kind, id, queue_name, available_at, delayed FROM unblocked
  UNION ALL
  SELECT 'stalled', NULL, queue_name, NULL, false FROM advanced WHERE stalled) a UNION ALL SELECT 'routed' AS kind, ro.id, ro.queue_name, ro.available_at, ro.delayed, ro.topic_name, rt.first_copy
       FROM routed ro JOIN route rt ON rt.id = ro.id) x
