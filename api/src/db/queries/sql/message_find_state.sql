-- message_find_state: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT id, queue_name, CASE status WHEN 'BLOCKED' THEN 'PENDING' ELSE status END, holder FROM message WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT id, queue_name, 'DEAD', NULL FROM message_dead WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT id, queue_name, 'ACKED', holder FROM message_acked WHERE id = ANY($1::uuid[])
