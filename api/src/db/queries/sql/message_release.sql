-- message_release: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH h AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS h (id uuid, retry_count int)),
     -- Locked first, to read when each was claimed: the UPDATE returns only the new row, whose claim time is gone.
     held AS (
       SELECT m.id, m.unacked_at FROM message m JOIN h ON m.id = h.id
        WHERE m.id = ANY (ARRAY(SELECT id FROM h)) AND m.retry_count = h.retry_count AND m.status = 'UNACKED' AND m.holder = $2
          FOR UPDATE OF m),
     back AS (
       UPDATE message m SET status = 'PENDING', holder = NULL, consumer_id = NULL, unacked_at = NULL, lease_expires_at = NULL
         FROM held
        WHERE m.id = ANY (ARRAY(SELECT id FROM held)) AND m.id = held.id
       RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed, held.unacked_at AS claimed_at),
     counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked)
       FROM (SELECT queue_name, 1 AS pending, -1 AS unacked, 0 AS dead, 0 AS acked FROM back) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked)
     SELECT id, queue_name, available_at, delayed, claimed_at FROM back
