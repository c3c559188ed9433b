import type { Queryable } from '../pool.js';

/**
 * The message at a group's head position is BLOCKED (PENDING again is harmless; never UNACKED).
 * Said without `status = 'BLOCKED'`: with that, the planner may take the BLOCKED listing index and
 * walk every waiting message of the queue (8 ms per ack at 27,000) instead of probing (queue, key, pos).
 */
const NOT_HELD = 'm.lease_expires_at IS NULL';

/**
 * CTEs for the messages of `left` (rows that just left the live table: acked or dead) that had an
 * ordering key: each one's (queue, key) group counts one live message fewer, and the next message
 * of the group, at position next_pos - live, goes from BLOCKED to PENDING (`unblocked`). Groups are
 * locked in (queue, key) order first, as publishes lock them, so the two never wait in a cycle.
 *
 * If this statement waited for a publish holding a group's lock, that publish's messages are not
 * in its snapshot: when the successor is not visible though the group still has live messages,
 * the group is marked `stalled` and `orderingPromoteStalled` (a statement of its own, after this
 * one's commit) makes its head PENDING. Messages without a key make every CTE here empty.
 */
export const ADVANCE_GROUPS = (left: string) =>
  `departed AS (
     SELECT queue_name, ordering_key, count(*) AS n FROM ${left} WHERE ordering_key IS NOT NULL GROUP BY 1, 2),
   locked_groups AS (
     SELECT g.queue_name, g.ordering_key, d.n FROM ordering_group g
       JOIN departed d ON d.queue_name = g.queue_name AND d.ordering_key = g.ordering_key
      ORDER BY g.queue_name, g.ordering_key FOR UPDATE OF g),
   advanced AS (
     UPDATE ordering_group g
        SET live = g.live - l.n,
            stalled = g.live - l.n > 0 AND NOT EXISTS (
              SELECT 1 FROM message s
               WHERE s.queue_name = g.queue_name AND s.ordering_key = g.ordering_key
                 AND s.ordering_pos = g.next_pos - g.live + l.n)
       FROM locked_groups l
      WHERE g.queue_name = l.queue_name AND g.ordering_key = l.ordering_key
     RETURNING g.queue_name, g.ordering_key, g.next_pos - g.live AS head_pos, g.live, g.stalled),
   unblocked AS (
     UPDATE message m SET status = 'PENDING'
       FROM advanced a
      WHERE a.live > 0 AND m.queue_name = a.queue_name AND m.ordering_key = a.ordering_key
        AND m.ordering_pos = a.head_pos AND ${NOT_HELD}
     RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed)`;

/**
 * CTEs `grouped` and `placed` for the rows of `keyed` (id, queue_name, ordering_key, k, n: the
 * k-th of n new messages of its group in this statement) joining the end of their group's order:
 * each group takes the next n positions under its row lock (in (queue, key) order), and `placed`
 * says each message's position and whether it is the group's head (nothing live before it).
 */
export const APPEND_TO_GROUPS = (keyed: string) =>
  `grouped AS (
     INSERT INTO ordering_group (queue_name, ordering_key, next_pos, live)
     SELECT queue_name, ordering_key, n, n FROM ${keyed} WHERE k = 1 ORDER BY queue_name, ordering_key
     ON CONFLICT (queue_name, ordering_key) DO UPDATE
        SET next_pos = ordering_group.next_pos + EXCLUDED.next_pos, live = ordering_group.live + EXCLUDED.live
     RETURNING queue_name, ordering_key, next_pos, live),
   placed AS (
     SELECT k.id, g.next_pos - k.n + k.k - 1 AS pos, g.next_pos - k.n + k.k - 1 = g.next_pos - g.live AS head
       FROM ${keyed} k JOIN grouped g ON g.queue_name = k.queue_name AND g.ordering_key = k.ordering_key)`;

/**
 * `keyed` for APPEND_TO_GROUPS from the rows of `source` that have an ordering key (queue_name,
 * ordering_key, available_at, seq, and the new message's id in column `id`): numbered within their
 * group in (available_at, seq) order, so the older messages of a key take the earlier positions.
 */
export const KEYED_IN_ORDER = (source: string, id: string) =>
  `keyed AS (
     SELECT s.${id} AS id, s.queue_name, s.ordering_key, row_number() OVER w AS k,
            count(*) OVER (PARTITION BY s.queue_name, s.ordering_key) AS n
       FROM ${source} s WHERE s.ordering_key IS NOT NULL
     WINDOW w AS (PARTITION BY s.queue_name, s.ordering_key ORDER BY s.available_at, s.seq))`;

/** A new message's status from its `placed` row `p` (none without a key): PENDING at its group's head, else BLOCKED. */
export const PLACED_STATUS = (p: string) => `CASE WHEN ${p}.head = false THEN 'BLOCKED' ELSE 'PENDING' END`;

/** The rows of `unblocked` and the stalled groups of `advanced`, as `kind`-tagged result rows. */
export const ADVANCE_RESULTS = `SELECT 'unblocked' AS kind, id, queue_name, available_at, delayed FROM unblocked
  UNION ALL
  SELECT 'stalled', NULL, queue_name, NULL, false FROM advanced WHERE stalled`;

export interface UnblockedRow {
  id: string;
  queue_name: string;
  available_at: string;
  delayed: boolean;
}

/**
 * Makes the head of every stalled group PENDING (see ADVANCE_GROUPS). Groups locked by another
 * statement are skipped (that one will see to them, or the next run). Cheap when nothing is
 * stalled: one look at an empty partial index.
 */
export async function orderingPromoteStalled(db: Queryable, limit: number): Promise<UnblockedRow[]> {
  const { rows } = await db.query<UnblockedRow>({
    name: 'ordering_promote_stalled',
    text: `WITH picked AS (
       SELECT queue_name, ordering_key FROM ordering_group WHERE stalled
        ORDER BY queue_name, ordering_key LIMIT $1 FOR UPDATE SKIP LOCKED),
     -- Stays stalled only if its head is still not visible (then the next run tries again).
     cleared AS (
       UPDATE ordering_group g
          SET stalled = g.live > 0 AND NOT EXISTS (
                SELECT 1 FROM message s
                 WHERE s.queue_name = g.queue_name AND s.ordering_key = g.ordering_key AND s.ordering_pos = g.next_pos - g.live)
         FROM picked p
        WHERE g.queue_name = p.queue_name AND g.ordering_key = p.ordering_key
       RETURNING g.queue_name, g.ordering_key, g.next_pos - g.live AS head_pos, g.live)
     UPDATE message m SET status = 'PENDING'
       FROM cleared c
      WHERE c.live > 0 AND m.queue_name = c.queue_name AND m.ordering_key = c.ordering_key
        AND m.ordering_pos = c.head_pos AND ${NOT_HELD}
     RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed`,
    values: [limit],
  });
  return rows;
}

/**
 * Forgets up to `limit` groups with nothing live (every message of the key acked or dead), so that
 * keys used once (an order id, say) do not pile up. A group a statement holds is skipped, and a
 * publish that waited for this delete inserts the group afresh, its positions starting again at 0:
 * nothing live is behind them. Returns how many went.
 */
export async function orderingGroupsForgetIdle(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query({
    name: 'ordering_groups_forget_idle',
    text: `DELETE FROM ordering_group g
      USING (SELECT queue_name, ordering_key FROM ordering_group WHERE live = 0 LIMIT $1 FOR UPDATE SKIP LOCKED) idle
      WHERE g.queue_name = idle.queue_name AND g.ordering_key = idle.ordering_key AND g.live = 0`,
    values: [limit],
  });
  return rowCount ?? 0;
}
