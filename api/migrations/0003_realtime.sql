-- Consumer WebSockets, whichever instance holds them, so one dispatcher can pick exactly one socket
-- per message over all of them. A row lives as long as its socket; the owner_* columns name the
-- instance's coordination session, so rows of an instance that died can be found and removed.
CREATE TABLE ws_consumer (
  id             text PRIMARY KEY,
  -- CASCADE: deleting a queue ends its consumers; the FK also refuses sockets for unknown queues.
  queue_name     text NOT NULL REFERENCES queue (name) ON DELETE CASCADE,
  instance_id    text NOT NULL,
  owner_pid      integer NOT NULL,
  owner_started  timestamptz NOT NULL,
  connected_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX ws_consumer_queue_idx ON ws_consumer (queue_name);
CREATE INDEX ws_consumer_instance_idx ON ws_consumer (instance_id);

-- Every instance hears who joined or left, in commit order with the message notifications, so the
-- dispatcher's view of the consumers is the one the database had when each message was committed.
CREATE FUNCTION miniqueue_notify_ws_members() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('miniqueue_ws_members', json_build_object(
      'op', 'INSERT', 'id', NEW.id, 'queue', NEW.queue_name, 'instance', NEW.instance_id)::text);
  ELSE
    PERFORM pg_notify('miniqueue_ws_members', json_build_object(
      'op', 'DELETE', 'id', OLD.id, 'queue', OLD.queue_name, 'instance', OLD.instance_id)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ws_consumer_changed AFTER INSERT OR DELETE ON ws_consumer
  FOR EACH ROW EXECUTE FUNCTION miniqueue_notify_ws_members();

-- miniqueue_ready: messages that just became PENDING (published, nacked with requeue, redelivered,
-- replayed) in queues that have a consumer socket somewhere. Unlike miniqueue_events it carries
-- EVERY id (in chunks that fit NOTIFY's 8000-byte limit), because each one is notified to a socket.
-- A delayed group carries no ids: the dispatcher looks them up by (queue, available_at) when due.
CREATE FUNCTION miniqueue_notify_ready() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ready uuid[];
BEGIN
  -- old_rows exists only for UPDATE, so each case names its own rows first.
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.id) INTO ready FROM new_rows n
     WHERE n.status = 'PENDING' AND EXISTS (SELECT 1 FROM ws_consumer w WHERE w.queue_name = n.queue_name);
  ELSE
    SELECT array_agg(n.id) INTO ready FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE n.status = 'PENDING' AND o.status <> 'PENDING'
       AND EXISTS (SELECT 1 FROM ws_consumer w WHERE w.queue_name = n.queue_name);
  END IF;
  IF ready IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('miniqueue_ready', json_build_object(
      'queue', g.queue_name, 'available_at', g.available_at, 'delayed', g.delayed, 'ids', g.ids)::text)
    FROM (SELECT c.queue_name, c.available_at, c.delayed,
                 CASE WHEN c.delayed THEN '{}'::uuid[] ELSE array_agg(c.id ORDER BY c.seq) END AS ids
            FROM (SELECT n.id, n.seq, n.queue_name, n.available_at, n.available_at > now() AS delayed,
                         (row_number() OVER (PARTITION BY n.queue_name, n.available_at ORDER BY n.seq) - 1) / 150 AS chunk
                    FROM new_rows n JOIN unnest(ready) AS r (id) ON r.id = n.id) c
           GROUP BY c.queue_name, c.available_at, c.delayed, CASE WHEN c.delayed THEN 0 ELSE c.chunk END) g;
  RETURN NULL;
END $$;

CREATE TRIGGER message_inserted_ready AFTER INSERT ON message
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION miniqueue_notify_ready();
CREATE TRIGGER message_updated_ready AFTER UPDATE ON message
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION miniqueue_notify_ready();
