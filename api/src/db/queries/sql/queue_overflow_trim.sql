-- queue_overflow_trim: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH used AS (SELECT k.queue_name, sum(k.pending + k.unacked) AS n, sum(k.bytes) AS b FROM queue_counter k WHERE k.queue_name = ANY($1::text[]) GROUP BY k.queue_name),
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
       DELETE FROM message m USING doomed d WHERE m.id = ANY (ARRAY(SELECT id FROM doomed)) AND m.id = d.id
       RETURNING m.*, d.overflow, octet_length(m.payload) AS bytes),
     death AS (
     SELECT g.*, 'OVERFLOW' AS death_reason, g.nack_reason AS death_nack_reason, 'dead-lettered to make room in a full queue' AS death_detail,
            q.dead_letter_topic AS dlt, q.dead_letter_keep AS keep,
            coalesce(CASE WHEN g.headers->>'miniqueue-death-count' ~ '^[0-9]{1,4}$' THEN (g.headers->>'miniqueue-death-count')::int END, 0) + 1 AS hops,
            coalesce(CASE WHEN g.headers->>'miniqueue-death-copies-left' ~ '^[0-9]{1,4}$' THEN (g.headers->>'miniqueue-death-copies-left')::int END,
                     100) AS allowance
       FROM gone g JOIN queue q ON q.name = g.queue_name WHERE g.overflow = 'dead_letter_oldest'),
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
       FROM (SELECT queue_name, -1 AS pending, 0 AS unacked, 0 AS dead, 0 AS acked, -1 * gone.bytes AS bytes FROM gone
       UNION ALL SELECT queue_name, 0 AS pending, 0 AS unacked, 1 AS dead, 0 AS acked, 0 AS bytes FROM buried
       UNION ALL SELECT queue_name, 1 AS pending, 0 AS unacked, 0 AS dead, 0 AS acked, 1 * routed.bytes AS bytes FROM routed) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked, bytes = k.bytes + EXCLUDED.bytes)
     SELECT (SELECT count(*) FROM gone)::int AS removed,
            (SELECT count(*) FROM oldest)::int AS looked,
            (SELECT count(*) FROM extra)::int AS over,
            (SELECT coalesce(json_agg(json_build_object('id', u.id, 'queue_name', u.queue_name, 'available_at', u.available_at,
                                                        'delayed', u.delayed, 'topic_name', u.topic_name, 'first_copy', u.first_copy)), '[]')
               FROM (SELECT id, queue_name, available_at, delayed, NULL::text AS topic_name, NULL::boolean AS first_copy FROM unblocked
                     UNION ALL SELECT id, queue_name, available_at, delayed, topic_name, first_copy FROM (SELECT 'routed' AS kind, ro.id, ro.queue_name, ro.available_at, ro.delayed, ro.topic_name, rt.first_copy
       FROM routed ro JOIN route rt ON rt.id = ro.id) rr) u) AS unblocked
