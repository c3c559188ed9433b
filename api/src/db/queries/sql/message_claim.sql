-- message_claim: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH r AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, queue text, holder text, consumer text, lim int, max_bytes bigint)),
     -- Each request takes the positions (upto - lim, upto] of its queue's claimed rows.
     req AS (SELECT r.*, sum(r.lim) OVER (PARTITION BY r.queue ORDER BY r.ref) AS upto FROM r),
     -- A queue with a delivery gate is left to message_claim_gated (messageClaimGated.ts).
     wanted AS (
       SELECT req.queue, max(req.upto) AS n, bool_or(g.max_priority IS NOT NULL) AS prioritized
         FROM req JOIN queue g ON g.name = req.queue WHERE NOT g.gated GROUP BY req.queue),
     picked AS (
       SELECT w.queue, p.id, p.bytes,
              row_number() OVER (PARTITION BY w.queue ORDER BY p.priority DESC NULLS LAST, p.available_at, p.seq) AS n
         FROM wanted w CROSS JOIN LATERAL (
           -- Each branch a subquery of its own: FOR UPDATE is not allowed on a branch of a UNION.
           SELECT * FROM (
             SELECT id, priority, available_at, seq, octet_length(payload) AS bytes FROM message x
              WHERE NOT w.prioritized AND queue_name = w.queue AND status = 'PENDING' AND available_at <= now() AND (x.expires_at IS NULL OR x.expires_at > now())
              ORDER BY available_at, seq
              LIMIT w.n
                FOR UPDATE SKIP LOCKED) oldest
           UNION ALL
           SELECT * FROM (
             SELECT id, priority, available_at, seq, octet_length(payload) AS bytes FROM message x
              WHERE w.prioritized AND queue_name = w.queue AND status = 'PENDING' AND priority IS NOT NULL
                AND available_at <= now() AND (x.expires_at IS NULL OR x.expires_at > now())
              ORDER BY priority DESC, available_at, seq
              LIMIT w.n
                FOR UPDATE SKIP LOCKED) highest) p),
     positioned AS (
       SELECT p.id, q.ref, q.holder, q.consumer, q.max_bytes, sum(p.bytes) OVER (PARTITION BY q.ref ORDER BY p.n) - p.bytes AS bytes_before
         FROM picked p JOIN req q ON q.queue = p.queue AND p.n > q.upto - q.lim AND p.n <= q.upto),
     assigned AS (
       SELECT id, ref, holder, consumer FROM positioned WHERE max_bytes IS NULL OR bytes_before < max_bytes),
     claimed AS (
       UPDATE message m
          SET status = 'UNACKED', holder = a.holder, consumer_id = a.consumer, unacked_at = now(),
              lease_expires_at = now() + make_interval(secs => q.ack_timeout_seconds)
         FROM assigned a, queue q
        WHERE m.id = ANY (ARRAY(SELECT id FROM assigned)) AND m.id = a.id AND q.name = m.queue_name
       RETURNING a.ref, m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.ordering_key, m.expires_at, m.priority, m.group_key,
  (extract(epoch FROM m.available_at) * 1000000)::bigint::text AS position, m.status, m.lease_expires_at),
     counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked)
       FROM (SELECT queue_name, -1 AS pending, 1 AS unacked, 0 AS dead, 0 AS acked FROM claimed) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked),
     -- This commit does not wait for its WAL flush (see the comment above).
     no_flush_wait AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)
     SELECT c.* FROM claimed c WHERE (SELECT setting FROM no_flush_wait) IS NOT NULL
