-- message_unclaim: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH back AS (
       UPDATE message SET status = 'PENDING', holder = NULL, consumer_id = NULL, unacked_at = NULL, lease_expires_at = NULL
        WHERE id = ANY($1::uuid[]) AND status = 'UNACKED' AND holder = $2
       RETURNING queue_name),
     counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked)
       FROM (SELECT queue_name, 1 AS pending, -1 AS unacked, 0 AS dead, 0 AS acked FROM back) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked)
     SELECT count(*)::int AS n FROM back
