-- How a queue's push endpoint is doing, so that a failing one is seen before its messages are dead.
--   consecutive_failures  Deliveries that failed in a row (0 after a success), on every instance.
--   last_error            Why the last failed one failed (its nack reason), kept after a success.
--   last_error_at, last_success_at
-- The push worker writes them at most once a second per endpoint and instance, for all of its
-- endpoints in one statement, and only when something changed (push/pushHealth.ts): a busy
-- endpoint that keeps succeeding costs one small update a second, not one per delivery.
ALTER TABLE queue_push
  ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  ADD COLUMN last_error text,
  ADD COLUMN last_error_at timestamptz,
  ADD COLUMN last_success_at timestamptz;
