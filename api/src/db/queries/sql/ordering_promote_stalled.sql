-- ordering_promote_stalled: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
WITH picked AS (
       SELECT queue_name, ordering_key FROM ordering_group WHERE stalled
        ORDER BY queue_name, ordering_key LIMIT $1 FOR UPDATE SKIP LOCKED),
     -- Stays stalled only if its head is still not visible (then the next run tries again).
     cleared AS (
       UPDATE ordering_group g
          SET stalled = g.live > 0 AND NOT EXISTS (
                SELECT 1 FROM message s
                 WHERE s.queue_name = g.queue_name AND s.ordering_key = g.ordering_key AND s.ordering_pos = g.next_pos - g.live)
         FROM picked p
        WHERE g.queue_name = p.queue_name AND g.ordering_key = p.ordering_key
       RETURNING g.queue_name, g.ordering_key, g.next_pos - g.live AS head_pos, g.live)
     UPDATE message m SET status = 'PENDING'
       FROM cleared c
      WHERE c.live > 0 AND m.queue_name = c.queue_name AND m.ordering_key = c.ordering_key
        AND m.ordering_pos = c.head_pos AND m.lease_expires_at IS NULL
     RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed
