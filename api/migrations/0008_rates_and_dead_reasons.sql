-- What the broker did, per 5-second bucket, kept 24 hours (src/stats/): every instance counts in
-- memory and adds its counts here once per bucket, in one statement (an additive upsert), so
-- publishing, claiming and settling never write these tables themselves. No foreign key to queue
-- or topic, for the reason 0005 gives: the rows of a deleted queue stay until they age out.
CREATE TABLE queue_rate (
  queue_name   text NOT NULL,
  bucket       timestamptz NOT NULL,
  enqueued     integer NOT NULL DEFAULT 0,
  delivered    integer NOT NULL DEFAULT 0,
  acked        integer NOT NULL DEFAULT 0,
  nacked       integer NOT NULL DEFAULT 0,
  dead         integer NOT NULL DEFAULT 0,
  redelivered  integer NOT NULL DEFAULT 0,
  replayed     integer NOT NULL DEFAULT 0,
  -- PENDING messages at the end of the bucket, when it was sampled and the queue had any.
  depth        integer,
  PRIMARY KEY (queue_name, bucket)
);
CREATE INDEX queue_rate_bucket_idx ON queue_rate (bucket);

-- Publishes to topics (one per published message, however many queue copies it made).
CREATE TABLE topic_rate (
  topic_name  text NOT NULL,
  bucket      timestamptz NOT NULL,
  published   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (topic_name, bucket)
);
CREATE INDEX topic_rate_bucket_idx ON topic_rate (bucket);

-- Buckets whose depth was sampled: the first instance to insert a bucket here counts the pending
-- messages of every queue for it (the others skip the count). A sampled bucket without a
-- queue_rate depth means the queue had none pending.
CREATE TABLE rate_sample (
  bucket  timestamptz PRIMARY KEY
);

-- Who consumed from a queue lately (a credential plus its MiniQueue-Instance), from every instance.
CREATE TABLE queue_poller (
  queue_name   text NOT NULL,
  consumer_id  text NOT NULL,
  seen_at      timestamptz NOT NULL,
  PRIMARY KEY (queue_name, consumer_id)
);

-- Why messages die. Both new live-table columns are NULL on publish (no bytes, no index), written
-- only by a nack (its reason) and by the lease sweeper (how often the lease ran out).
ALTER TABLE message ADD COLUMN nack_reason text, ADD COLUMN expired_count integer;
ALTER TABLE message_dead ADD COLUMN nack_reason text, ADD COLUMN dead_detail text;
-- RETRIES_EXHAUSTED: nacked for a retry with none left (0005 called that NACKED too).
ALTER TABLE message_dead DROP CONSTRAINT message_dead_dead_reason_check,
  ADD CONSTRAINT message_dead_dead_reason_check CHECK (dead_reason IN ('NACKED', 'RETRIES_EXHAUSTED', 'EXPIRED'));
-- The dead-letter listing by kind of death, of one queue and across queues. Deaths are rare next
-- to publishes, and these are not on the live table.
CREATE INDEX message_dead_queue_reason_idx ON message_dead (queue_name, dead_reason, available_at, seq);
CREATE INDEX message_dead_reason_idx ON message_dead (dead_reason, available_at, seq);
