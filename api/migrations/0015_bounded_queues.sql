-- Bounded queues: a queue may hold at most max_messages messages and/or max_bytes payload bytes
-- (PENDING, BLOCKED and UNACKED together; bytes are the payloads' UTF-8 bytes, headers not
-- counted). NULL: no bound. What a publish that does not fit does is the queue's overflow:
--   reject_publish      the whole publish is refused (429 queue_full), nothing of it stored
--   dead_letter_oldest  the oldest PENDING messages go to message_dead (reason OVERFLOW) to make room
--   drop_oldest         the oldest PENDING messages are deleted to make room
ALTER TABLE queue
  ADD COLUMN max_messages bigint CHECK (max_messages > 0),
  ADD COLUMN max_bytes bigint CHECK (max_bytes > 0),
  ADD COLUMN overflow text NOT NULL DEFAULT 'reject_publish'
    CHECK (overflow IN ('reject_publish', 'dead_letter_oldest', 'drop_oldest'));

-- The live payload bytes per queue, kept beside pending and unacked (0013) by the same statements,
-- so a bound by bytes reads 16 rows instead of summing the backlog.
ALTER TABLE queue_counter ADD COLUMN bytes bigint NOT NULL DEFAULT 0;

-- Writers wait until this commits, so the bytes start exact.
LOCK TABLE message IN SHARE MODE;
UPDATE queue_counter k
   SET bytes = live.bytes
  FROM (SELECT queue_name, sum(octet_length(payload)) AS bytes FROM message GROUP BY 1) live
 WHERE k.queue_name = live.queue_name AND k.shard = 0;

-- OVERFLOW: dead-lettered to make room in a bounded queue. TTL_EXPIRED: a message's time to live ran out.
ALTER TABLE message_dead DROP CONSTRAINT message_dead_dead_reason_check,
  ADD CONSTRAINT message_dead_dead_reason_check
    CHECK (dead_reason IN ('NACKED', 'RETRIES_EXHAUSTED', 'EXPIRED', 'TTL_EXPIRED', 'OVERFLOW'));
