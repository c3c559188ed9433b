-- stats_consumers_by_queue: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT queue_name AS queue, count(*)::int AS consumers FROM queue_poller
            WHERE seen_at > now() - interval '1 minute' GROUP BY 1
