import type { Queryable } from '../pool.js';

/**
 * Makes sure the hourly partitions of message_acked exist from the current hour to `aheadHours`
 * ahead (the SQL lives in migration 0005). Returns how many were created.
 */
export async function ackedPartitionsEnsure(db: Queryable, aheadHours: number): Promise<number> {
  const { rows } = await db.query<{ created: number }>(`SELECT miniqueue_acked_partitions_ensure(now(), now() + make_interval(hours => $1)) AS created`, [
    aheadHours,
  ]);
  return rows[0].created;
}

/**
 * Drops the partitions that only hold messages acked before the longest retention of any queue
 * (each queue's own, or `defaultHours` where it has none): expiry is a DROP TABLE, never a DELETE
 * of rows. A queue with a shorter retention stops showing older rows before they are dropped.
 */
export async function ackedPartitionsDropExpired(db: Queryable, defaultHours: number): Promise<number> {
  const { rows } = await db.query<{ dropped: number }>(
    `SELECT miniqueue_acked_partitions_drop(now() - make_interval(hours => greatest(
              $1::int, (SELECT coalesce(max(acked_retention_hours), 0) FROM queue)))) AS dropped`,
    [defaultHours],
  );
  return rows[0].dropped;
}
