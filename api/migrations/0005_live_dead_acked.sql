-- Messages split by where they are in their life, so the hot path stays small whatever the history:
--   message        PENDING and UNACKED only, with just the indexes claiming and the lease sweeper use;
--   message_dead   DEAD, until replayed, deleted or purged (or expired by its own retention setting);
--   message_acked  ACKED, only while the queue's acked retention lasts; partitioned by the hour of the
--                  ack so that expiry drops whole partitions instead of deleting rows.
-- A message keeps its id and seq when it moves between them.
--
-- No table has a foreign key to queue: every insert would take a KEY SHARE lock on the queue row, and
-- concurrent lockers of one row turn it into a multixact (written to WAL) on every publish. Deleting a
-- queue instead locks the message tables against writers for a moment (db/queries/queue.ts), so no
-- publish that saw the queue can commit rows after the queue's rows were deleted.
--
-- Transitions no longer NOTIFY from triggers: a notifying commit holds PostgreSQL's global notify
-- lock through its WAL flush, so notifying commits run one at a time. The broker tells waiters and
-- other instances after commit instead (src/realtime/changes.ts).

DROP TRIGGER message_inserted ON message;
DROP TRIGGER message_updated ON message;
DROP TRIGGER message_inserted_ready ON message;
DROP TRIGGER message_updated_ready ON message;
DROP FUNCTION miniqueue_notify_messages();
DROP FUNCTION miniqueue_notify_ready();
ALTER TABLE message RENAME TO message_before_0005;
ALTER INDEX message_pkey RENAME TO message_before_0005_pkey;
-- Index names are the new tables' now; the old table is only read once, in full, below.
DROP INDEX message_claim_idx, message_lease_idx, message_queue_seq_idx, message_queue_status_idx, message_dead_idx;

-- Message ids are UUIDv7 (time-ordered, so index inserts stay at the right edge), made in the
-- statement that stores the message: one id per queue copy, however many queues the topic has.
CREATE FUNCTION miniqueue_uuidv7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
           set_bit(set_bit(
             overlay(uuid_send(gen_random_uuid())
                     PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                     FROM 1 FOR 6),
             52, 1), 53, 1),
           'hex')::uuid
$$;

CREATE SEQUENCE message_seq AS bigint;
SELECT setval('message_seq', coalesce((SELECT max(seq) FROM message_before_0005), 0) + 1, false);

-- fillfactor: a claim rewrites the row (status and lease are indexed); room on the page lets the new
-- version stay there, which keeps that update's WAL record to the changed bytes.
CREATE TABLE message (
  id                uuid PRIMARY KEY,
  seq               bigint NOT NULL DEFAULT nextval('message_seq'),
  queue_name        text NOT NULL,
  topic_name        text NOT NULL,
  payload           text NOT NULL,
  headers           jsonb NOT NULL,
  status            text NOT NULL CHECK (status IN ('PENDING', 'UNACKED')),
  retry_count       integer NOT NULL DEFAULT 0,
  published_at      timestamptz NOT NULL,
  available_at      timestamptz NOT NULL,
  -- Who holds the lease: the credential's id (plus the MiniQueue-Instance header), so a client deleted
  -- and registered again under the same name cannot settle what the old one held.
  holder            text,
  -- The same holder as people read it: the credential's name (plus the instance).
  consumer_id       text,
  unacked_at        timestamptz,
  lease_expires_at  timestamptz,
  CHECK ((status = 'UNACKED') = (lease_expires_at IS NOT NULL AND holder IS NOT NULL))
) WITH (fillfactor = 80);
-- Claiming: the next available PENDING message of one queue. Also the order of listings.
CREATE INDEX message_claim_idx ON message (queue_name, available_at, seq) WHERE status = 'PENDING';
-- The lease sweeper: leases that ran out.
CREATE INDEX message_lease_idx ON message (lease_expires_at) WHERE status = 'UNACKED';
ALTER SEQUENCE message_seq OWNED BY message.seq;

CREATE TABLE message_dead (
  id            uuid PRIMARY KEY,
  seq           bigint NOT NULL,
  queue_name    text NOT NULL,
  topic_name    text NOT NULL,
  payload       text NOT NULL,
  headers       jsonb NOT NULL,
  retry_count   integer NOT NULL,
  published_at  timestamptz NOT NULL,
  available_at  timestamptz NOT NULL,
  consumer_id   text,
  unacked_at    timestamptz,
  dead_at       timestamptz NOT NULL,
  -- NACKED (the consumer refused it) or EXPIRED (its last lease ran out with no retries left).
  dead_reason   text NOT NULL CHECK (dead_reason IN ('NACKED', 'EXPIRED'))
);
CREATE INDEX message_dead_queue_idx ON message_dead (queue_name, available_at, seq);
CREATE INDEX message_dead_at_idx ON message_dead (dead_at);
-- The dead-letter listing across queues.
CREATE INDEX message_dead_position_idx ON message_dead (available_at, seq);

CREATE TABLE message_acked (
  id            uuid NOT NULL,
  seq           bigint NOT NULL,
  queue_name    text NOT NULL,
  topic_name    text NOT NULL,
  payload       text NOT NULL,
  headers       jsonb NOT NULL,
  retry_count   integer NOT NULL,
  published_at  timestamptz NOT NULL,
  available_at  timestamptz NOT NULL,
  holder        text,
  consumer_id   text,
  unacked_at    timestamptz,
  acked_at      timestamptz NOT NULL
) PARTITION BY RANGE (acked_at);
CREATE INDEX message_acked_queue_idx ON message_acked (queue_name, available_at, seq);
CREATE INDEX message_acked_id_idx ON message_acked (id);
-- Catches acks in an hour whose partition was not made in time (maintenance creates them a day
-- ahead), so an ack never fails for want of a partition.
CREATE TABLE message_acked_default PARTITION OF message_acked DEFAULT;

-- Per queue: how long acked messages are kept (hours; 0 = not kept; NULL = the broker's default).
ALTER TABLE queue ADD COLUMN acked_retention_hours integer CHECK (acked_retention_hours BETWEEN 0 AND 8760);

-- Acked messages ever, per queue, in 16 rows per queue: an ack adds to the row of its own
-- connection (pid % 16), so concurrent acks do not queue behind one row lock until commit.
CREATE TABLE queue_counter (
  queue_name  text NOT NULL REFERENCES queue (name) ON DELETE CASCADE,
  shard       smallint NOT NULL CHECK (shard BETWEEN 0 AND 15),
  acked       bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (queue_name, shard)
);
INSERT INTO queue_counter (queue_name, shard) SELECT q.name, s FROM queue q CROSS JOIN generate_series(0, 15) AS s;

-- Creates the hourly partitions covering [from_ts, to_ts) that do not exist yet. An hour that
-- already has rows in the default partition is skipped (creating it would fail); its rows stay there.
CREATE FUNCTION miniqueue_acked_partitions_ensure(from_ts timestamptz, to_ts timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  hour timestamptz := date_trunc('hour', from_ts, 'UTC');
  part text;
  created integer := 0;
BEGIN
  WHILE hour < to_ts LOOP
    part := 'message_acked_' || to_char(hour AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24');
    IF to_regclass(part) IS NULL
       AND NOT EXISTS (SELECT 1 FROM message_acked_default WHERE acked_at >= hour AND acked_at < hour + interval '1 hour') THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF message_acked FOR VALUES FROM (%L) TO (%L)',
                     part, hour, hour + interval '1 hour');
      created := created + 1;
    END IF;
    hour := hour + interval '1 hour';
  END LOOP;
  RETURN created;
END $$;

-- Drops the partitions whose every row was acked before `before`; the default partition is never
-- dropped, but its rows older than that are deleted.
CREATE FUNCTION miniqueue_acked_partitions_drop(before timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  part record;
  dropped integer := 0;
BEGIN
  FOR part IN
    SELECT c.oid::regclass AS rel,
           substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']+)''\)')::timestamptz AS upper_bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent = 'message_acked'::regclass AND c.oid <> 'message_acked_default'::regclass
  LOOP
    IF part.upper_bound <= before THEN
      EXECUTE format('DROP TABLE %s', part.rel);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  DELETE FROM message_acked_default WHERE acked_at < before;
  RETURN dropped;
END $$;

-- Acked messages from before this migration go into one partition ending at this hour; the hourly
-- partitions start from here.
DO $$
DECLARE
  this_hour timestamptz := date_trunc('hour', now(), 'UTC');
BEGIN
  EXECUTE format('CREATE TABLE message_acked_before_%s PARTITION OF message_acked FOR VALUES FROM (MINVALUE) TO (%L)',
                 to_char(this_hour AT TIME ZONE 'UTC', 'YYYYMMDD"t"HH24'), this_hour);
  PERFORM miniqueue_acked_partitions_ensure(this_hour, this_hour + interval '25 hours');
END $$;

-- Every message moves across; nothing is lost or duplicated (the old table is dropped only after).
INSERT INTO message (id, seq, queue_name, topic_name, payload, headers, status, retry_count, published_at,
                     available_at, holder, consumer_id, unacked_at, lease_expires_at)
SELECT id, seq, queue_name, topic_name, payload, headers, status, retry_count, published_at,
       available_at, consumer_id, consumer_id, unacked_at, lease_expires_at
  FROM message_before_0005 WHERE status IN ('PENDING', 'UNACKED');

INSERT INTO message_dead (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
                          available_at, consumer_id, unacked_at, dead_at, dead_reason)
SELECT id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
       available_at, consumer_id, unacked_at, coalesce(dead_at, now()),
       CASE WHEN last_event = 'EXPIRED_DEAD' THEN 'EXPIRED' ELSE 'NACKED' END
  FROM message_before_0005 WHERE status = 'DEAD';

INSERT INTO message_acked (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
                           available_at, holder, consumer_id, unacked_at, acked_at)
SELECT id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
       available_at, consumer_id, consumer_id, unacked_at, coalesce(acked_at, now())
  FROM message_before_0005 WHERE status = 'ACKED';

UPDATE queue_counter k SET acked = a.n
  FROM (SELECT queue_name, count(*) AS n FROM message_before_0005 WHERE status = 'ACKED' GROUP BY queue_name) a
 WHERE k.queue_name = a.queue_name AND k.shard = 0;

DROP TABLE message_before_0005;

-- A monitor socket opened on some instance: the others check again whether anyone watches (they send
-- their coalesced monitor events only then).
CREATE FUNCTION miniqueue_notify_monitor_presence() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('miniqueue_monitor_presence', NEW.instance_id);
  RETURN NULL;
END $$;
CREATE TRIGGER ws_monitor_present AFTER INSERT ON ws_monitor
  FOR EACH ROW EXECUTE FUNCTION miniqueue_notify_monitor_presence();
