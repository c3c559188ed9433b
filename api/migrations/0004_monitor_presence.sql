-- CONSUMED and ACKED transitions wake nobody: only dashboards' live monitors show them. Every
-- NOTIFY serializes its commit with every other notifying commit, so these are sent only while
-- some instance holds a monitor socket (one row per such instance, naming its coordination
-- session so the rows of an instance that died can be found and removed).
CREATE TABLE ws_monitor (
  instance_id    text PRIMARY KEY,
  owner_pid      integer NOT NULL,
  owner_started  timestamptz NOT NULL
);

CREATE OR REPLACE FUNCTION miniqueue_notify_messages() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  watched boolean := EXISTS (SELECT 1 FROM ws_monitor);
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
               AND (watched OR n.last_event NOT IN ('CONSUMED', 'ACKED'))
             GROUP BY n.last_event, n.queue_name) e;
  END IF;
  RETURN NULL;
END $$;
