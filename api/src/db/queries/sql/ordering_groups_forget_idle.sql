-- ordering_groups_forget_idle: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
DELETE FROM ordering_group g
      USING (SELECT queue_name, ordering_key FROM ordering_group WHERE live = 0 LIMIT $1 FOR UPDATE SKIP LOCKED) idle
      WHERE g.queue_name = idle.queue_name AND g.ordering_key = idle.ordering_key AND g.live = 0
