-- idempotency_find: the statement as the broker prepares it (api/src/db/queries/).
-- Written by `npm run sql:render -w @miniqueue/api`; a test fails when it is stale. Do not edit.
SELECT k.owner, k.key, k.topic_name, k.request_hash, k.message_ids, k.queues,
              CASE WHEN k.refused_at = k.created_at THEN k.refused END AS refused
       FROM idempotency_key k JOIN unnest($1::text[], $2::text[]) AS w (owner, key) USING (owner, key)
