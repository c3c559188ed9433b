-- message_publish_bounded: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH item AS (
       SELECT * FROM ROWS FROM (json_to_recordset($1::json)
                  AS (topic text, payload text, headers jsonb, delay int, owner text, key text, hash text, okey text, ttl int, prio int, gkey text))
                WITH ORDINALITY AS i (topic, payload, headers, delay, owner, key, hash, okey, ttl, prio, gkey, ord)),
     candidate AS MATERIALIZED (
       SELECT miniqueue_uuidv7() AS id, i.ord, q.name AS queue, i.okey, q.require_ordering_key AND i.okey IS NULL AS refuses,
              least(now() + make_interval(secs => i.ttl), now() + make_interval(secs => q.message_ttl_seconds)) AS expires_at, CASE WHEN q.max_priority IS NOT NULL THEN least(coalesce(i.prio, 0), q.max_priority) END AS priority, CASE WHEN q.fairness = 'by_key' THEN coalesce(i.gkey, i.okey, '') END AS group_key,
              false AS bounded,
              (q.max_messages IS NOT NULL OR q.max_bytes IS NOT NULL) AND q.overflow IN ('reject_publish', 'reject_copy') AS rejects,
              q.overflow = 'reject_copy' AS copy_only, q.max_messages, q.max_bytes, octet_length(i.payload) AS bytes
         FROM item i JOIN queue q ON q.topic_name = i.topic
                                 AND (q.filter IS NULL OR miniqueue_filter_matches(q.filter, i.headers))),
     used AS (SELECT k.queue_name, sum(k.pending + k.unacked) AS n, sum(k.bytes) AS b FROM queue_counter k WHERE k.queue_name IN (SELECT queue FROM candidate WHERE rejects) GROUP BY k.queue_name),
     fit AS (
       SELECT c.ord, c.queue, c.copy_only, c.refuses, c.max_messages, c.max_bytes,
              (c.max_messages IS NOT NULL AND u.n + count(*) OVER w > c.max_messages)
              OR (c.max_bytes IS NOT NULL AND u.b + sum(c.bytes) OVER w > c.max_bytes) AS too_full
         FROM candidate c JOIN used u ON u.queue_name = c.queue
        WHERE c.rejects
       WINDOW w AS (PARTITION BY c.queue ORDER BY c.ord)),
     refused_copy AS (SELECT ord, queue, max_messages, max_bytes FROM fit WHERE too_full AND copy_only AND NOT refuses),
     copy AS (
       SELECT c.* FROM candidate c
        WHERE NOT EXISTS (SELECT 1 FROM refused_copy r WHERE r.ord = c.ord AND r.queue = c.queue)),
     full_item AS (
       SELECT DISTINCT ON (ord) ord, queue, max_messages, max_bytes
         FROM (SELECT ord, queue, max_messages, max_bytes, 0 AS rank FROM fit WHERE too_full AND NOT copy_only
               UNION ALL
               SELECT r.ord, r.queue, r.max_messages, r.max_bytes, 1 FROM refused_copy r
                WHERE NOT EXISTS (SELECT 1 FROM copy c WHERE c.ord = r.ord)) f
        ORDER BY ord, rank, queue),
     refused_of_item AS (
       SELECT ord, json_agg(json_build_object('queue', queue, 'max_messages', max_messages::float8, 'max_bytes', max_bytes::float8)
                            ORDER BY queue) AS refused
         FROM refused_copy GROUP BY ord),
     fanned AS (
       SELECT ord, array_agg(id ORDER BY queue) AS ids, array_agg(queue ORDER BY queue) AS queues, bool_or(refuses) AS refused,
              bool_or(bounded) AS bounded
         FROM copy GROUP BY ord),
     per_item AS MATERIALIZED (
       SELECT i.ord, i.topic, i.payload, i.headers, i.owner, i.key, i.hash, t.topic_exists,
              coalesce(f.refused, false) AS refused, false AS bounded, fu.queue AS full_queue, fu.max_messages::float8 AS full_max_messages,
              fu.max_bytes::float8 AS full_max_bytes, rc.refused AS refused_copies,
              t.topic_exists AND NOT coalesce(f.refused, false) AND fu.ord IS NULL  AS may,
              now() + make_interval(secs => i.delay) AS available_at,
              coalesce(f.ids, '{}') AS ids, coalesce(f.queues, '{}') AS queues
         FROM item i LEFT JOIN fanned f ON f.ord = i.ord LEFT JOIN full_item fu ON fu.ord = i.ord LEFT JOIN refused_of_item rc ON rc.ord = i.ord
        CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM topic t WHERE t.name = i.topic) AS topic_exists) t),
     claimed AS (
       INSERT INTO idempotency_key (owner, key, topic_name, request_hash, message_ids, queues, refused, refused_at)
       SELECT p.owner, p.key, p.topic, p.hash, p.ids, p.queues, p.refused_copies::jsonb, now() FROM per_item p
        WHERE p.key IS NOT NULL AND p.may
        ORDER BY p.owner, p.key
       ON CONFLICT (owner, key) DO UPDATE
          SET topic_name = EXCLUDED.topic_name, request_hash = EXCLUDED.request_hash,
              message_ids = EXCLUDED.message_ids, queues = EXCLUDED.queues, created_at = now(), refused = EXCLUDED.refused, refused_at = now()
        WHERE idempotency_key.created_at < now() - make_interval(hours => $2)
       RETURNING owner, key),
     outcome AS MATERIALIZED (
       SELECT p.*, p.may AND (p.key IS NULL OR EXISTS (
                SELECT 1 FROM claimed k WHERE k.owner = p.owner AND k.key = p.key)) AS stored
         FROM per_item p),
     stored AS (
       INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at, expires_at, priority, group_key)
       SELECT c.id, c.queue, o.topic, o.payload, o.headers, 'PENDING', now(), o.available_at, c.expires_at, c.priority, c.group_key
         FROM outcome o JOIN copy c ON c.ord = o.ord
        WHERE o.stored
        ORDER BY o.ord, c.queue
       RETURNING queue_name, octet_length(payload) AS bytes),
     counted AS (
     INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, dead, acked, bytes)
     SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(dead), sum(acked), sum(bytes)
       FROM (SELECT queue_name, 1 AS pending, 0 AS unacked, 0 AS dead, 0 AS acked, 1 * stored.bytes AS bytes FROM stored) d
      GROUP BY queue_name ORDER BY queue_name
     ON CONFLICT (queue_name, shard) DO UPDATE
        SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked,
            dead = k.dead + EXCLUDED.dead, acked = k.acked + EXCLUDED.acked, bytes = k.bytes + EXCLUDED.bytes)
     SELECT o.ord::int AS ord, o.topic_exists, o.refused, o.stored, to_json(o.ids) AS message_ids, to_json(o.queues) AS queues,
            to_json(o.available_at) #>> '{}' AS available_at, o.available_at > now() AS delayed,
            o.full_queue, o.full_max_messages, o.full_max_bytes, o.refused_copies
       FROM outcome o ORDER BY o.ord
