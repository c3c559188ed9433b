-- message_extend: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
UPDATE message SET lease_expires_at = now() + make_interval(secs => $4)
      WHERE id = $1 AND status = 'UNACKED' AND holder = $2
        AND ($3::text[] IS NULL OR queue_name = ANY($3::text[]))
     RETURNING id, lease_expires_at
