-- Message expiry and routable dead letters.
--   message_ttl_seconds  a message published to the queue expires this long after its publish;
--                        NULL: never (a publish's own expires_in_seconds may still set one; the
--                        earlier deadline wins). Changing it applies to messages published after.
--   on_expiry            what the expiry sweep does with an expired message: dead_letter (reason
--                        TTL_EXPIRED) or drop.
--   dead_letter_topic    the queue's dead letters (every reason) are published to this topic, in
--                        the transaction of the death, with miniqueue-death-* headers; NULL: none.
--                        Deleting the topic unsets it.
--   dead_letter_keep     a routed dead letter also stays in the queue's own message_dead.
ALTER TABLE queue
  ADD COLUMN message_ttl_seconds integer CHECK (message_ttl_seconds BETWEEN 1 AND 1209600),
  ADD COLUMN on_expiry text NOT NULL DEFAULT 'dead_letter' CHECK (on_expiry IN ('dead_letter', 'drop')),
  ADD COLUMN dead_letter_topic text REFERENCES topic (name) ON DELETE SET NULL,
  ADD COLUMN dead_letter_keep boolean NOT NULL DEFAULT false,
  ADD CONSTRAINT queue_dead_letter_topic_check CHECK (dead_letter_topic <> topic_name);

-- When a live message expires; NULL: never. Set at publish from the publish and the queue.
ALTER TABLE message ADD COLUMN expires_at timestamptz;

-- The expiry sweep's index: only messages that expire are in it, so a queue without expiry adds
-- nothing to it and a sweep that finds nothing reads one index page.
CREATE INDEX message_expires_idx ON message (expires_at) WHERE expires_at IS NOT NULL;

-- A dead message keeps the deadline it had (listings show it); acked ones do not need it.
ALTER TABLE message_dead ADD COLUMN expires_at timestamptz;
ALTER TABLE message_acked ADD COLUMN expires_at timestamptz;
