-- Message priorities.
--   queue.max_priority    NULL (the default): the queue ignores priorities and delivers oldest
--                         first. 1-9: claims take its highest priority first, oldest first within
--                         one; a publish's priority above it counts as max_priority (as RabbitMQ's
--                         x-max-priority). A change applies to messages published after it.
--   message.priority      Set on copies to a queue with max_priority (0 when the publish gave
--                         none), NULL on every other copy, so those queues' rows are not in the
--                         priority index and their claims stay as they were.
ALTER TABLE queue ADD COLUMN max_priority smallint CHECK (max_priority BETWEEN 1 AND 9);
ALTER TABLE message ADD COLUMN priority smallint CHECK (priority BETWEEN 0 AND 9);
-- Dead and acked copies keep theirs: a replay puts it back.
ALTER TABLE message_dead ADD COLUMN priority smallint;
ALTER TABLE message_acked ADD COLUMN priority smallint;

-- The claim index of prioritized queues: highest first, then the order of message_claim_idx.
CREATE INDEX message_priority_claim_idx ON message (queue_name, priority DESC, available_at, seq)
  WHERE status = 'PENDING' AND priority IS NOT NULL;
