-- message_release: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH h AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS h (id uuid, retry_count int)),
     back AS (
       UPDATE message m SET status = 'PENDING', holder = NULL, consumer_id = NULL, unacked_at = NULL, lease_expires_at = NULL
         FROM h
        WHERE m.id = ANY (ARRAY(SELECT id FROM h)) AND m.id = h.id AND m.retry_count = h.retry_count AND m.status = 'UNACKED' AND m.holder = $2
       RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at),
     counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked)
       FROM (SELECT queue_name, 1 AS pending, -1 AS unacked, 0 AS dead, 0 AS acked FROM back) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked)
     SELECT id, queue_name, available_at FROM back
