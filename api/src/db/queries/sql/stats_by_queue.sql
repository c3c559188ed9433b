-- stats_by_queue: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT q.name AS queue, q.topic_name AS topic, coalesce(k.pending, 0)::int AS pending,
            coalesce(k.unacked, 0)::int AS unacked, coalesce(k.acked, 0)::int AS acked, coalesce(k.dead, 0)::int AS dead,
            coalesce((SELECT floor(extract(epoch FROM now() - m.published_at)) FROM message m
                       WHERE m.queue_name = q.name AND m.status = 'PENDING' AND m.available_at <= now() AND (m.expires_at IS NULL OR m.expires_at > now())
                       ORDER BY m.available_at, m.seq LIMIT 1), 0)::int AS oldest_pending_age_seconds, p.consecutive_failures AS push_consecutive_failures,
            q.attention
       FROM queue q
       LEFT JOIN queue_push p ON p.queue_name = q.name
       LEFT JOIN (SELECT queue_name, sum(pending) AS pending, sum(unacked) AS unacked, sum(acked) AS acked, sum(dead) AS dead
                    FROM queue_counter GROUP BY 1) k ON k.queue_name = q.name
      ORDER BY q.name
