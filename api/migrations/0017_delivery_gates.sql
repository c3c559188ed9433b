-- Delivery gates: policies that decide who may be given a queue's messages, and how fast.
--   single_active_consumer     only one consumer (the claim's holder) is given messages at a time
--   max_deliveries_per_second  a token bucket shared by every instance; NULL: no limit
-- `gated` says whether either is set: the plain claim statement leaves gated queues to the gated
-- one (db/queries/messageClaimGated.ts), so queues that use neither keep their statement.
ALTER TABLE queue
  ADD COLUMN single_active_consumer boolean NOT NULL DEFAULT false,
  ADD COLUMN max_deliveries_per_second integer CHECK (max_deliveries_per_second BETWEEN 1 AND 100000),
  ADD COLUMN gated boolean GENERATED ALWAYS AS (single_active_consumer OR max_deliveries_per_second IS NOT NULL) STORED;

-- The consumer whose turn it is, per single-active-consumer queue. It keeps the turn while it asks
-- (each claim moves active_until on) and while it holds a live lease; another takes it only after.
CREATE TABLE queue_active_consumer (
  queue_name text PRIMARY KEY REFERENCES queue (name) ON DELETE CASCADE,
  holder text NOT NULL,
  consumer_id text NOT NULL,
  since timestamptz NOT NULL,
  active_until timestamptz NOT NULL
) WITH (fillfactor = 50);

-- The delivery token bucket of a rate-limited queue: `tokens` as of `refilled_at`; it refills at
-- the queue's rate up to a tenth of a second's worth (at least one).
CREATE TABLE queue_delivery_tokens (
  queue_name text PRIMARY KEY REFERENCES queue (name) ON DELETE CASCADE,
  tokens double precision NOT NULL,
  refilled_at timestamptz NOT NULL
) WITH (fillfactor = 50);
