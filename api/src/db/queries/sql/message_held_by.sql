-- message_held_by: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.ordering_key, m.expires_at, m.priority, m.group_key,
  (extract(epoch FROM m.available_at) * 1000000)::bigint::text AS position, m.status, m.lease_expires_at FROM message m
      WHERE m.id = ANY($1::uuid[]) AND m.status = 'UNACKED' AND m.holder = $2
      ORDER BY m.available_at, m.seq
