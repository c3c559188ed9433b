-- queue_bounds_exceeded: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT q.name AS queue_name, q.max_messages::float8 AS max_messages, q.max_bytes::float8 AS max_bytes
             FROM queue q JOIN (SELECT k.queue_name, sum(k.pending + k.unacked) AS n, sum(k.bytes) AS b FROM queue_counter k WHERE k.queue_name = ANY($1::text[]) GROUP BY k.queue_name) u ON u.queue_name = q.name
            WHERE u.n > coalesce(q.max_messages, u.n) OR u.b > coalesce(q.max_bytes, u.b)
            ORDER BY q.name
