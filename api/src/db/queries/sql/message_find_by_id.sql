-- message_find_by_id: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.ordering_key, m.expires_at, m.priority, m.group_key,
  (extract(epoch FROM m.available_at) * 1000000)::bigint::text AS position, CASE m.status WHEN 'BLOCKED' THEN 'PENDING' ELSE m.status END AS status, m.lease_expires_at, NULL::timestamptz AS dead_at, NULL::text AS dead_reason, NULL::text AS dead_detail FROM message m WHERE m.id = $1
     UNION ALL
     SELECT m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.ordering_key, m.expires_at, m.priority, m.group_key,
  (extract(epoch FROM m.available_at) * 1000000)::bigint::text AS position, 'DEAD', NULL::timestamptz, m.dead_at, m.dead_reason, m.dead_detail FROM message_dead m WHERE m.id = $1
     UNION ALL
     SELECT m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.ordering_key, m.expires_at, m.priority, m.group_key,
  (extract(epoch FROM m.available_at) * 1000000)::bigint::text AS position, 'ACKED', NULL::timestamptz, NULL::timestamptz AS dead_at, NULL::text AS dead_reason, NULL::text AS dead_detail FROM message_acked m WHERE m.id = $1
        AND m.acked_at > now() - make_interval(hours => (
              SELECT coalesce(q.acked_retention_hours, $2) FROM queue q WHERE q.name = m.queue_name))
     LIMIT 1
