-- Ordering keys and filtered subscriptions.
--
-- Ordering keys: within one queue, messages of one key are delivered one at a time in publish order.
-- Only the head of each (queue, key) is PENDING; the messages behind it wait as BLOCKED, which the
-- claim index (WHERE status = 'PENDING') does not hold, so a claim stays one SKIP LOCKED walk along
-- that index and never steps over another key's waiting messages, and messages without a key pay
-- for nothing. The head stays the head through nacks, delays and expired leases; when it leaves the
-- live table (acked or dead) the next one of its key becomes PENDING in the same statement.
--
-- ordering_group keeps, per (queue, key), how many positions were handed out (next_pos) and how many
-- of its messages are live: the head is at position next_pos - live. Every publish and every
-- departure of a head updates this row, so they serialize on its row lock. A departure that waited
-- for a publish holding that lock cannot see the publish's new message (its snapshot is older); it
-- then marks the group `stalled`, and a second statement, after its commit, promotes the head
-- (broker/ordering.ts; the lease sweeper does it too, should an instance die in between).
ALTER TABLE message ADD COLUMN ordering_key text, ADD COLUMN ordering_pos bigint;
-- 0005 named its status check implicitly (message_status_check1, as the table it replaced held the name).
DO $$
DECLARE
  old_check text;
BEGIN
  SELECT conname INTO STRICT old_check FROM pg_constraint
   WHERE conrelid = 'message'::regclass AND contype = 'c'
     AND pg_get_constraintdef(oid) LIKE '%''PENDING''%' AND pg_get_constraintdef(oid) NOT LIKE '%lease_expires_at%';
  EXECUTE format('ALTER TABLE message DROP CONSTRAINT %I', old_check);
END $$;
ALTER TABLE message ADD CONSTRAINT message_status_check CHECK (status IN ('PENDING', 'UNACKED', 'BLOCKED'));
ALTER TABLE message ADD CONSTRAINT message_ordering_check
  CHECK ((ordering_key IS NULL) = (ordering_pos IS NULL) AND (status <> 'BLOCKED' OR ordering_key IS NOT NULL));
-- The successor of a head, by position; only keyed messages are in it.
CREATE INDEX message_ordering_idx ON message (queue_name, ordering_key, ordering_pos) WHERE ordering_key IS NOT NULL;
-- Listing waiting messages (shown as PENDING) in order.
CREATE INDEX message_blocked_idx ON message (queue_name, available_at, seq) WHERE status = 'BLOCKED';

ALTER TABLE message_dead ADD COLUMN ordering_key text;
ALTER TABLE message_acked ADD COLUMN ordering_key text;

-- No foreign key to queue, as for the message tables (0005): deleting a queue deletes its groups.
CREATE TABLE ordering_group (
  queue_name    text NOT NULL,
  ordering_key  text NOT NULL,
  next_pos      bigint NOT NULL,
  live          bigint NOT NULL CHECK (live >= 0),
  stalled       boolean NOT NULL DEFAULT false,
  PRIMARY KEY (queue_name, ordering_key)
) WITH (fillfactor = 80);
CREATE INDEX ordering_group_stalled_idx ON ordering_group (queue_name) WHERE stalled;

-- A queue may refuse messages without an ordering key; a queue may take only the messages whose
-- headers match its filter (NULL: every message).
ALTER TABLE queue ADD COLUMN require_ordering_key boolean NOT NULL DEFAULT false, ADD COLUMN filter jsonb;

-- Does a filter (validated by the broker when the queue was created or changed) match these headers?
--   {"header": h, "equals": v} | {"header": h, "one_of": [v, …]} | {"header": h, "prefix": p}
--   | {"header": h, "exists": true|false} | {"not": f} | {"and": [f, …]} | {"or": [f, …]}
-- A condition on a header the message does not have is false (so `not` of it is true).
-- Plain loops over the array rather than EXISTS (SELECT … jsonb_array_elements): every expression
-- here is then a simple one, which PL/pgSQL evaluates without a query (a tenth of the time).
CREATE FUNCTION miniqueue_filter_matches(f jsonb, h jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  v text;
  i integer;
BEGIN
  IF f ? 'and' THEN
    FOR i IN 0 .. jsonb_array_length(f -> 'and') - 1 LOOP
      IF NOT miniqueue_filter_matches(f -> 'and' -> i, h) THEN RETURN false; END IF;
    END LOOP;
    RETURN true;
  ELSIF f ? 'or' THEN
    FOR i IN 0 .. jsonb_array_length(f -> 'or') - 1 LOOP
      IF miniqueue_filter_matches(f -> 'or' -> i, h) THEN RETURN true; END IF;
    END LOOP;
    RETURN false;
  ELSIF f ? 'not' THEN
    RETURN NOT miniqueue_filter_matches(f -> 'not', h);
  ELSIF f ? 'exists' THEN
    RETURN (h ? (f ->> 'header')) = (f -> 'exists')::boolean;
  END IF;
  v := h ->> (f ->> 'header');
  IF v IS NULL THEN
    RETURN false;
  ELSIF f ? 'equals' THEN
    RETURN v = f ->> 'equals';
  ELSIF f ? 'one_of' THEN
    RETURN (f -> 'one_of') ? v;
  ELSIF f ? 'prefix' THEN
    RETURN starts_with(v, f ->> 'prefix');
  END IF;
  RETURN false;
END $$;
