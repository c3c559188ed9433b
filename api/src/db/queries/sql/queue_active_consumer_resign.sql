-- queue_active_consumer_resign: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
UPDATE queue_active_consumer SET active_until = least(active_until, now())
            WHERE queue_name = ANY ($1::text[]) AND holder = $2
