-- Replay from history: each replay request is a row, and its cursor moves with every batch in the
-- same transaction as the batch's copies. A retried request (same idempotency key) or a second
-- instance running the same request continues from the cursor instead of copying again.
CREATE TABLE history_replay (
  id                 uuid PRIMARY KEY,
  queue_name         text NOT NULL REFERENCES queue (name) ON DELETE CASCADE,
  -- The caller's Idempotency-Key, when it gave one: the same key on the same queue is the same request.
  idempotency_key    text,
  -- Messages published after (published_at, seq) > (from_published_at, from_seq) are replayed:
  -- `since` T is (T, 0); `after_id` is the anchor message's own (published_at, seq).
  from_published_at  timestamptz NOT NULL,
  from_seq           bigint NOT NULL,
  -- Only messages acked by the time the request was made: the replay's own copies, acked while it
  -- runs, are never replayed by it.
  until_acked_at     timestamptz NOT NULL,
  -- Where the next batch starts, along message_acked_queue_idx (available_at, seq).
  cursor_available_at timestamptz NOT NULL,
  cursor_seq         bigint NOT NULL,
  replayed           bigint NOT NULL DEFAULT 0,
  finished_at        timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  UNIQUE (queue_name, idempotency_key)
);
CREATE INDEX history_replay_created_idx ON history_replay (created_at);

-- Push: a queue may have one HTTPS endpoint the broker POSTs its messages to. The signing secret
-- must be usable to sign, so it cannot be a hash: it is stored encrypted (AES-256-GCM) under a key
-- that lives only in the instances' environment (MINIQUEUE_PUSH_SECRET_KEY). After a rotation the
-- previous secret also signs for a while, so receivers can switch without refusing deliveries.
CREATE TABLE queue_push (
  queue_name                 text PRIMARY KEY REFERENCES queue (name) ON DELETE CASCADE,
  url                        text NOT NULL,
  max_in_flight              integer NOT NULL CHECK (max_in_flight BETWEEN 1 AND 100),
  timeout_seconds            integer NOT NULL CHECK (timeout_seconds BETWEEN 1 AND 60),
  secret_sealed              text NOT NULL,
  previous_secret_sealed     text,
  previous_secret_until      timestamptz,
  secret_rotated_at          timestamptz NOT NULL DEFAULT now(),
  created_at                 timestamptz NOT NULL DEFAULT now(),
  updated_at                 timestamptz NOT NULL DEFAULT now()
);
