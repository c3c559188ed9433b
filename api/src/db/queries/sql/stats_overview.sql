-- stats_overview: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT coalesce(sum(pending), 0)::int AS pending, coalesce(sum(unacked), 0)::int AS unacked,
            coalesce(sum(acked), 0)::int AS acked, coalesce(sum(dead), 0)::int AS dead,
            (SELECT count(*) FROM topic)::int AS topics, (SELECT count(*) FROM queue)::int AS queues
       FROM queue_counter
