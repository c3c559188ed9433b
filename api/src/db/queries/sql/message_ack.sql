-- message_ack: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, id uuid, holder text, queues text[])),
     acked AS (
       DELETE FROM message m USING r WHERE m.id = ANY (ARRAY(SELECT id FROM r)) AND m.id = r.id AND m.status = 'UNACKED' AND m.holder = r.holder
  AND (r.queues IS NULL OR m.queue_name = ANY (r.queues))
       RETURNING m.*, r.ref, now() AS acked_at, octet_length(m.payload) AS bytes),
     kept AS (
       INSERT INTO message_acked (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
                                  available_at, holder, consumer_id, unacked_at, acked_at, ordering_key, priority, group_key)
       SELECT a.id, a.seq, a.queue_name, a.topic_name, a.payload, a.headers, a.retry_count, a.published_at,
              a.available_at, a.holder, a.consumer_id, a.unacked_at, a.acked_at, a.ordering_key, a.priority, a.group_key
         FROM acked a JOIN queue q ON q.name = a.queue_name
        WHERE coalesce(q.acked_retention_hours, $2) > 0),
     counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked, bytes)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked), sum(bytes)
       FROM (SELECT queue_name, 0 AS pending, -1 AS unacked, 0 AS dead, 1 AS acked, -1 * acked.bytes AS bytes FROM acked) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked, bytes = k.bytes + EXCLUDED.bytes),
     departed AS (
     SELECT queue_name, ordering_key, count(*) AS n FROM acked WHERE ordering_key IS NOT NULL GROUP BY 1, 2),
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
     RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed)
     SELECT 'own' AS kind, ref, id, queue_name, published_at, NULL AS available_at, false AS delayed FROM acked
     UNION ALL SELECT kind, NULL, id, queue_name, NULL, available_at, delayed FROM (SELECT 'unblocked' AS kind, id, queue_name, available_at, delayed FROM unblocked
  UNION ALL
  SELECT 'stalled', NULL, queue_name, NULL, false FROM advanced WHERE stalled) x
