-- Topics, queues and messages: the broker's state. Names are natural keys (immutable, validated
-- by the application); message ids are UUIDs made by the application.

CREATE TABLE topic (
  name        text PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE queue (
  name                 text PRIMARY KEY,
  -- RESTRICT: a topic cannot be deleted while queues are bound to it.
  topic_name           text NOT NULL REFERENCES topic (name) ON DELETE RESTRICT,
  ack_timeout_seconds  integer NOT NULL CHECK (ack_timeout_seconds BETWEEN 1 AND 43200),
  max_retries          integer NOT NULL CHECK (max_retries BETWEEN 0 AND 100),
  created_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_topic_idx ON queue (topic_name);

CREATE TABLE message (
  id                uuid PRIMARY KEY,
  -- Insertion order, for stable cursor pagination; not a delivery-order promise.
  seq               bigint GENERATED ALWAYS AS IDENTITY,
  queue_name        text NOT NULL REFERENCES queue (name) ON DELETE CASCADE,
  topic_name        text NOT NULL,
  payload           text NOT NULL,
  headers           jsonb NOT NULL DEFAULT '{}'::jsonb,
  status            text NOT NULL CHECK (status IN ('PENDING', 'UNACKED', 'ACKED', 'DEAD')),
  retry_count       integer NOT NULL DEFAULT 0,
  published_at      timestamptz NOT NULL DEFAULT now(),
  available_at      timestamptz NOT NULL DEFAULT now(),
  consumer_id       text,
  unacked_at        timestamptz,
  lease_expires_at  timestamptz,
  acked_at          timestamptz,
  dead_at           timestamptz,
  -- What happened last (PUBLISHED, CONSUMED, ACKED, NACKED, NACKED_DEAD, REDELIVERED,
  -- EXPIRED_DEAD, REPLAYED): the monitor feed is derived from it after commit.
  last_event        text NOT NULL,
  CHECK ((status = 'UNACKED') = (lease_expires_at IS NOT NULL))
);
-- The claim path: oldest available PENDING message of one queue.
CREATE INDEX message_claim_idx ON message (queue_name, available_at, seq) WHERE status = 'PENDING';
-- The lease sweeper: leases that ran out.
CREATE INDEX message_lease_idx ON message (lease_expires_at) WHERE status = 'UNACKED';
-- Listing a queue's messages page by page, and per-queue counts.
CREATE INDEX message_queue_seq_idx ON message (queue_name, seq);
CREATE INDEX message_queue_status_idx ON message (queue_name, status);
-- The dead-letter listing across queues.
CREATE INDEX message_dead_idx ON message (seq) WHERE status = 'DEAD';

-- API keys of registered programs. Only the SHA-256 of a key is stored.
CREATE TABLE client (
  id            uuid PRIMARY KEY,
  name          text NOT NULL,
  scopes        text[] NOT NULL,
  key_hash      bytea NOT NULL UNIQUE,
  key_prefix    text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz,
  revoked_at    timestamptz
);
-- A revoked client's name may be registered again.
CREATE UNIQUE INDEX client_active_name_idx ON client (name) WHERE revoked_at IS NULL;

-- Idempotency keys, per publisher. A publish claims its key in the same transaction that stores
-- its messages, so a failed publish frees the key and a concurrent duplicate waits for the first.
CREATE TABLE idempotency_key (
  owner         text NOT NULL,
  key           text NOT NULL,
  topic_name    text NOT NULL,
  request_hash  text NOT NULL,
  message_ids   uuid[] NOT NULL DEFAULT '{}',
  queues        text[] NOT NULL DEFAULT '{}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_key_created_idx ON idempotency_key (created_at);

-- After commit, every instance hears what changed (NOTIFY is delivered only on commit):
--   miniqueue_events: message transitions, grouped per statement, queue and event;
--   miniqueue_topology: topics and queues created or deleted;
--   miniqueue_auth: a client changed (rotate, revoke), so cached principals must go.
CREATE FUNCTION miniqueue_notify_messages() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('miniqueue_events', json_build_object(
        'event', e.last_event, 'queue', e.queue_name, 'count', e.n, 'ids', e.ids,
        'available_at', e.next_available)::text)
      FROM (SELECT last_event, queue_name, count(*) AS n, (array_agg(id ORDER BY seq))[1:20] AS ids,
                   min(available_at) FILTER (WHERE status = 'PENDING') AS next_available
              FROM new_rows GROUP BY last_event, queue_name) e;
  ELSE
    PERFORM pg_notify('miniqueue_events', json_build_object(
        'event', e.last_event, 'queue', e.queue_name, 'count', e.n, 'ids', e.ids,
        'available_at', e.next_available)::text)
      FROM (SELECT n.last_event, n.queue_name, count(*) AS n, (array_agg(n.id ORDER BY n.seq))[1:20] AS ids,
                   min(n.available_at) FILTER (WHERE n.status = 'PENDING') AS next_available
              FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE n.status IS DISTINCT FROM o.status
             GROUP BY n.last_event, n.queue_name) e;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER message_inserted AFTER INSERT ON message
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION miniqueue_notify_messages();
CREATE TRIGGER message_updated AFTER UPDATE ON message
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION miniqueue_notify_messages();

CREATE FUNCTION miniqueue_notify_topology() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('miniqueue_topology', json_build_object(
    'kind', lower(TG_TABLE_NAME), 'op', TG_OP,
    'name', CASE WHEN TG_OP = 'DELETE' THEN OLD.name ELSE NEW.name END)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER topic_changed AFTER INSERT OR DELETE ON topic
  FOR EACH ROW EXECUTE FUNCTION miniqueue_notify_topology();
CREATE TRIGGER queue_changed AFTER INSERT OR DELETE ON queue
  FOR EACH ROW EXECUTE FUNCTION miniqueue_notify_topology();

CREATE FUNCTION miniqueue_notify_auth() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('miniqueue_auth', json_build_object('kind', 'client', 'id', OLD.id)::text);
  RETURN NULL;
END $$;
-- Only a change of key or a revocation matters; last_used_at updates must not flush caches.
CREATE TRIGGER client_key_changed AFTER UPDATE OF key_hash, revoked_at, scopes OR DELETE ON client
  FOR EACH ROW EXECUTE FUNCTION miniqueue_notify_auth();
