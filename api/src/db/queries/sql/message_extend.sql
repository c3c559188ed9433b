-- message_extend: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, id uuid, holder text, queues text[], seconds int))
     UPDATE message m SET lease_expires_at = now() + make_interval(secs => r.seconds)
       FROM r WHERE m.id = ANY (ARRAY(SELECT id FROM r)) AND m.id = r.id AND m.status = 'UNACKED' AND m.holder = r.holder
  AND (r.queues IS NULL OR m.queue_name = ANY (r.queues))
     RETURNING r.ref, m.id, m.lease_expires_at
