-- queue_bounds_lock: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT name, topic_name, max_messages::float8 AS max_messages, max_bytes::float8 AS max_bytes, overflow FROM queue
            WHERE (topic_name = ANY($1::text[]) OR name = ANY($2::text[]) OR $3::boolean)
              AND (max_messages IS NOT NULL OR max_bytes IS NOT NULL)
            ORDER BY name FOR NO KEY UPDATE
