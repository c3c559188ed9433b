-- message_next_available: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT EXISTS (SELECT 1 FROM queue WHERE name = $1) AS found,
            (SELECT gated FROM queue WHERE name = $1) AS gated,
            (SELECT available_at FROM message x WHERE queue_name = $1 AND status = 'PENDING' AND (x.expires_at IS NULL OR x.expires_at > now())
              ORDER BY available_at, seq LIMIT 1) AS next
