-- message_claim_gated: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH r AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, queue text, holder text, consumer text, lim int, max_bytes bigint, hold float8)),
     g AS (
       SELECT q.name, q.single_active_consumer AS sac, q.max_deliveries_per_second AS rate,
              greatest(1, q.max_deliveries_per_second / 10.0) AS burst, q.gated, q.max_priority IS NOT NULL AS prioritized,
              q.fairness = 'by_key' AS fair, q.max_in_flight_per_key AS per_key
         FROM queue q WHERE q.name IN (SELECT queue FROM r)),
     -- Single active consumer: the holder whose turn it is asks for it again; else the first asker.
     asker AS (
       SELECT DISTINCT ON (r.queue) r.queue, r.holder, r.consumer, r.hold
         FROM r JOIN g ON g.name = r.queue AND g.sac
         LEFT JOIN queue_active_consumer a ON a.queue_name = r.queue
        ORDER BY r.queue, (r.holder IS NOT DISTINCT FROM a.holder) DESC, r.ref),
     turn AS (
       INSERT INTO queue_active_consumer AS a (queue_name, holder, consumer_id, since, active_until)
       SELECT queue, holder, consumer, now(), now() + make_interval(secs => hold) FROM asker ORDER BY queue
       ON CONFLICT (queue_name) DO UPDATE
          SET since = CASE WHEN a.holder = excluded.holder THEN a.since ELSE excluded.since END,
              active_until = CASE WHEN a.holder = excluded.holder THEN greatest(a.active_until, excluded.active_until) ELSE excluded.active_until END,
              holder = excluded.holder, consumer_id = excluded.consumer_id
        WHERE a.holder = excluded.holder
           OR (a.active_until <= now() AND NOT EXISTS (
                 SELECT 1 FROM message l
                  WHERE l.status = 'UNACKED' AND l.lease_expires_at > now() AND l.queue_name = a.queue_name AND l.holder = a.holder))
       RETURNING a.queue_name, a.holder),
     eligible AS (
       SELECT r.* FROM r JOIN g ON g.name = r.queue
        WHERE (NOT g.sac OR EXISTS (SELECT 1 FROM turn t WHERE t.queue_name = r.queue AND t.holder = r.holder))),
     req AS (SELECT e.*, sum(e.lim) OVER (PARTITION BY e.queue ORDER BY e.ref) AS upto FROM eligible e),
     -- Rate limit: the bucket, locked, refilled to this moment (clock time: the lock may have waited).
     bucket AS (
       SELECT b.queue_name, g.rate, g.burst, clock_timestamp() AS at,
              least(g.burst, b.tokens + g.rate * greatest(0, extract(epoch FROM clock_timestamp() - b.refilled_at))) AS tokens
         FROM queue_delivery_tokens b JOIN g ON g.name = b.queue_name
        WHERE g.rate IS NOT NULL AND b.queue_name IN (SELECT queue FROM eligible)
          FOR UPDATE OF b),
     wanted AS (
       SELECT req.queue, CASE WHEN g.rate IS NULL THEN max(req.upto) ELSE least(max(req.upto), floor(coalesce(min(b.tokens), 0))) END::bigint AS n,
              g.prioritized, g.fair, g.per_key
         FROM req JOIN g ON g.name = req.queue LEFT JOIN bucket b ON b.queue_name = req.queue
        GROUP BY req.queue, g.rate, g.prioritized, g.fair, g.per_key),
     -- Fair queues: their turn rows, locked (in name order) after every other gate's row: what
     -- comes later depends on `wanted`, which depends on those.
     turn_locked AS MATERIALIZED (
       SELECT t.queue_name, t.last_key FROM queue_fair_turn t
        WHERE t.queue_name IN (SELECT queue FROM wanted WHERE fair AND n > 0)
        ORDER BY t.queue_name FOR UPDATE OF t),
     -- The keys to take from this time, in turn (visits bounded by what is wanted), counted once the lock is held.
     fair_keys AS MATERIALIZED (
       SELECT w.queue, k.group_key, k.room, k.visit
         FROM wanted w JOIN turn_locked t ON t.queue_name = w.queue
        CROSS JOIN LATERAL miniqueue_fair_keys(w.queue, t.last_key, w.per_key, least(1000, 4 * w.n + 16)::int) k
        WHERE w.fair AND w.n > 0),
     picked AS (
       SELECT w.queue, p.id, p.bytes, p.group_key,
              row_number() OVER (PARTITION BY w.queue ORDER BY p.turn, p.visit, p.priority DESC NULLS LAST, p.available_at, p.seq) AS n
         FROM wanted w CROSS JOIN LATERAL (
           -- Each branch a subquery of its own: FOR UPDATE is not allowed on a branch of a UNION.
           SELECT * FROM (
             SELECT id, priority, available_at, seq, octet_length(payload) AS bytes, 1::bigint AS turn, 0 AS visit, NULL::text AS group_key FROM message x
              WHERE NOT w.prioritized AND NOT w.fair AND queue_name = w.queue AND status = 'PENDING' AND available_at <= now() AND (x.expires_at IS NULL OR x.expires_at > now())
              ORDER BY available_at, seq
              LIMIT w.n
                FOR UPDATE SKIP LOCKED) oldest
           UNION ALL
           SELECT * FROM (
             SELECT id, priority, available_at, seq, octet_length(payload) AS bytes, 1::bigint AS turn, 0 AS visit, NULL::text AS group_key FROM message x
              WHERE w.prioritized AND queue_name = w.queue AND status = 'PENDING' AND priority IS NOT NULL
                AND available_at <= now() AND (x.expires_at IS NULL OR x.expires_at > now())
              ORDER BY priority DESC, available_at, seq
              LIMIT w.n
                FOR UPDATE SKIP LOCKED) highest
           UNION ALL
           SELECT t.id, NULL::smallint, t.available_at, t.seq, t.bytes, t.turn, k.visit, k.group_key
             FROM fair_keys k CROSS JOIN LATERAL (
               SELECT h.*, row_number() OVER (ORDER BY h.available_at, h.seq) AS turn FROM (
                 SELECT id, available_at, seq, octet_length(payload) AS bytes FROM message x
                  WHERE queue_name = k.queue AND group_key = k.group_key AND status = 'PENDING'
                    AND available_at <= now() AND (x.expires_at IS NULL OR x.expires_at > now())
                  ORDER BY available_at, seq
                  LIMIT least(k.room, w.n)
                    FOR UPDATE SKIP LOCKED) h) t
            WHERE w.fair AND k.queue = w.queue AND k.room > 0) p),
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
     spent AS (
       UPDATE queue_delivery_tokens t
          SET tokens = b.tokens - (SELECT count(*) FROM claimed c WHERE c.queue_name = b.queue_name), refilled_at = b.at
         FROM bucket b WHERE t.queue_name = b.queue_name
       RETURNING t.queue_name, t.tokens, b.rate, b.burst),
     -- The next fair claim starts after the last key served (or, serving none, the last visited).
     turned AS (
       UPDATE queue_fair_turn t
          SET last_key = coalesce(
                (SELECT p.group_key FROM picked p JOIN fair_keys k ON k.queue = p.queue AND k.group_key = p.group_key
                  WHERE p.queue = t.queue_name AND p.id IN (SELECT id FROM claimed) ORDER BY k.visit DESC LIMIT 1),
                (SELECT k.group_key FROM fair_keys k WHERE k.queue = t.queue_name ORDER BY k.visit DESC LIMIT 1))
        WHERE t.queue_name IN (SELECT queue FROM fair_keys)),
     no_flush_wait AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)
     SELECT 'message' AS kind, c.*, NULL::boolean AS gated, NULL::boolean AS standby, NULL::int AS wait_ms,
            NULL::boolean AS full
       FROM claimed c WHERE (SELECT setting FROM no_flush_wait) IS NOT NULL
     UNION ALL
     SELECT 'verdict', r.ref, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
            coalesce(g.gated, false),
            coalesce(g.sac, false) AND r.ref NOT IN (SELECT ref FROM eligible),
            (SELECT ceil(1000 * (least(r.lim, s.burst) - s.tokens) / s.rate)::int FROM spent s WHERE s.queue_name = r.queue AND s.tokens < 1),
            EXISTS (SELECT 1 FROM fair_keys k WHERE k.queue = r.queue AND k.room <= 0)
       FROM r LEFT JOIN g ON g.name = r.queue
      WHERE NOT EXISTS (SELECT 1 FROM claimed c WHERE c.ref = r.ref)
