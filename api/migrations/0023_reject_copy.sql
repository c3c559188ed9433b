-- overflow reject_copy: a full queue refuses only its own copy of a publish; the other queues of
-- the topic still get theirs (reject_publish keeps refusing the whole publish).
ALTER TABLE queue DROP CONSTRAINT queue_overflow_check,
  ADD CONSTRAINT queue_overflow_check CHECK (overflow IN ('reject_publish', 'reject_copy', 'dead_letter_oldest', 'drop_oldest'));

-- What a keyed publish's queues refused, [{queue, max_messages, max_bytes}], so that a repeat of
-- the key is answered as the first publish was; NULL: nothing was refused. refused_at: the claim
-- that wrote it (a key claimed again by a publish that writes no refused keeps an older stamp than
-- its created_at, and its refused is not read).
ALTER TABLE idempotency_key ADD COLUMN refused jsonb, ADD COLUMN refused_at timestamptz;
