-- Fair sharing between the group keys (tenants) of one queue.
--   queue.fairness               'none' (the default): oldest first. 'by_key': claims go round the
--                                group keys that have a message waiting, in turn (message_claim_gated).
--                                Fixed when the queue is created, as max_priority is, and not combined
--                                with it: it decides which index a queue's messages are in.
--   queue.max_in_flight_per_key  With 'by_key': at most this many UNACKED messages per key; NULL: no limit.
--   message.group_key            Set on copies to a 'by_key' queue (the publish's group_key, else its
--                                ordering key, else ''), NULL on every other copy, so those queues' rows
--                                are in neither index below and their claims stay as they were.
ALTER TABLE queue
  ADD COLUMN fairness text NOT NULL DEFAULT 'none' CHECK (fairness IN ('none', 'by_key')),
  ADD COLUMN max_in_flight_per_key integer CHECK (max_in_flight_per_key BETWEEN 1 AND 10000),
  ADD CONSTRAINT queue_per_key_needs_fairness CHECK (max_in_flight_per_key IS NULL OR fairness = 'by_key'),
  ADD CONSTRAINT queue_fairness_without_priority CHECK (fairness = 'none' OR max_priority IS NULL);

-- A fair queue's claims go through the gated statement: `gated` is recomputed to say so. (A
-- generated column's expression cannot be altered before PostgreSQL 17; the queue table is small.)
ALTER TABLE queue DROP COLUMN gated;
ALTER TABLE queue ADD COLUMN gated boolean
  GENERATED ALWAYS AS (single_active_consumer OR max_deliveries_per_second IS NOT NULL OR fairness = 'by_key') STORED;

ALTER TABLE message ADD COLUMN group_key text;
-- Dead and acked copies keep theirs: a replay puts it back.
ALTER TABLE message_dead ADD COLUMN group_key text;
ALTER TABLE message_acked ADD COLUMN group_key text;

-- The keys that have a message waiting, each one's oldest first: the fair claim skips from key to
-- key along it (one probe per key, however long a key's backlog) and takes each key's head.
CREATE INDEX message_fair_claim_idx ON message (queue_name, group_key, available_at, seq)
  WHERE status = 'PENDING' AND group_key IS NOT NULL;
-- The planner's guess of how many rows one group key has, when the key is not known before the
-- claim runs (it comes from miniqueue_fair_keys): a distinct key per hundred rows of the table,
-- whatever ANALYZE finds. Measured (docs/performance.md, 2026-12-02): with one noisy key
-- holding nearly every row, ANALYZE's own n_distinct of 1 made any key look like a million rows,
-- so the take of a quiet key's head cost the same through either index, and where the plain claim
-- index was the smaller the planner walked the noisy key's million rows through it (232 ms a
-- claim) instead of probing this one (2 ms). The fair claim index is the right one for every key.
ALTER TABLE message ALTER COLUMN group_key SET (n_distinct = -0.01);

-- What each key has in flight, counted up to max_in_flight_per_key.
CREATE INDEX message_fair_held_idx ON message (queue_name, group_key)
  WHERE status = 'UNACKED' AND group_key IS NOT NULL;

-- Whose turn comes next in a fair queue: claims start after the key the last one ended on. Its row
-- lock also makes fair claims take turns, so each counts what is in flight after the one before
-- committed (messageClaimGated.ts).
CREATE TABLE queue_fair_turn (
  queue_name text PRIMARY KEY REFERENCES queue (name) ON DELETE CASCADE,
  last_key text
) WITH (fillfactor = 50);

-- The group keys of fair queue `q` to claim from, in turn: those with a PENDING message, from the
-- first after `after` round to `after` itself, at most `visits` of them (a claim's cost stays
-- bounded however many tenants wait; the next claim starts where this one ended). `room`: how many
-- more of the key may be UNACKED under `per_key` (NULL: no limit). One index probe per key, however
-- long its backlog: the probe for the key after k starts past all of k's entries.
-- VOLATILE on purpose: each query in it takes a snapshot of its own. The claim statement calls it
-- once it holds the queue's turn row lock, so the counts see every fair claim committed before
-- that lock was granted, which the statement's own (older) snapshot would not.
CREATE FUNCTION miniqueue_fair_keys(q text, after text, per_key integer, visits integer)
RETURNS TABLE (group_key text, room integer, visit integer)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  cur text := after;
  nxt text;
  before_wrap boolean := after IS NOT NULL;
  held integer;
BEGIN
  visit := 0;
  WHILE visit < visits LOOP
    IF cur IS NULL THEN
      SELECT m.group_key INTO nxt FROM message m
       WHERE m.queue_name = q AND m.status = 'PENDING' AND m.group_key IS NOT NULL
       ORDER BY m.group_key LIMIT 1;
    ELSE
      SELECT m.group_key INTO nxt FROM message m
       WHERE m.queue_name = q AND m.status = 'PENDING' AND m.group_key IS NOT NULL AND m.group_key > cur
       ORDER BY m.group_key LIMIT 1;
    END IF;
    IF nxt IS NULL THEN
      EXIT WHEN NOT before_wrap;
      -- Past the last key: round to the first.
      before_wrap := false;
      cur := NULL;
      CONTINUE;
    END IF;
    -- Round again past where this claim started: every key was visited.
    EXIT WHEN NOT before_wrap AND after IS NOT NULL AND nxt > after;
    cur := nxt;
    visit := visit + 1;
    group_key := cur;
    IF per_key IS NULL THEN
      room := 2147483647;
    ELSE
      SELECT count(*) INTO held FROM (
        SELECT 1 FROM message m WHERE m.queue_name = q AND m.group_key = cur AND m.status = 'UNACKED' LIMIT per_key) h;
      room := per_key - held;
    END IF;
    RETURN NEXT;
  END LOOP;
END $$;
