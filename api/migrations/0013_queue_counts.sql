-- Messages per queue and state, kept as counters beside the acked count (0005), in the same 16 rows
-- per queue: every statement that moves messages between states adds what it moved to its own
-- connection's row (pg_backend_pid() % 16), in the same statement (db/queries/queueCounts.ts), so a
-- count is exact at every commit and the dashboard, the gauges and the depth sample read 16 rows per
-- queue instead of counting the backlog (with 1,000,000 pending the overview took 130 ms).
--   pending  PENDING and BLOCKED (waiting behind its ordering key) in the live table
--   unacked  UNACKED in the live table
--   dead     rows of message_dead
-- Instances of an earlier version do not keep them: upgrade every instance before (or while)
-- this runs, as with any migration whose columns the new statements write.
ALTER TABLE queue_counter
  ADD COLUMN pending bigint NOT NULL DEFAULT 0,
  ADD COLUMN unacked bigint NOT NULL DEFAULT 0,
  ADD COLUMN dead bigint NOT NULL DEFAULT 0;

-- Writers wait until this commits, so the counts start exact.
LOCK TABLE message, message_dead IN SHARE MODE;
UPDATE queue_counter k
   SET pending = coalesce(live.pending, 0), unacked = coalesce(live.unacked, 0), dead = coalesce(gone.dead, 0)
  FROM queue q
  LEFT JOIN (SELECT queue_name, count(*) FILTER (WHERE status <> 'UNACKED') AS pending, count(*) FILTER (WHERE status = 'UNACKED') AS unacked
               FROM message GROUP BY 1) live ON live.queue_name = q.name
  LEFT JOIN (SELECT queue_name, count(*) AS dead FROM message_dead GROUP BY 1) gone ON gone.queue_name = q.name
 WHERE k.queue_name = q.name AND k.shard = 0;
