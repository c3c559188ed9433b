import type { Queryable } from '../pool.js';

/** Dead rows in the live message table, as the statistics collector last counted them. */
export async function liveTableDeadRows(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ dead: number }>(
    `SELECT coalesce((SELECT n_dead_tup FROM pg_stat_user_tables WHERE relid = 'message'::regclass), 0)::int AS dead`,
  );
  return rows[0].dead;
}

/**
 * Vacuums the live message table now, unless a vacuum (autovacuum, or another instance's) already
 * holds it: SKIP_LOCKED returns at once then. Not in a transaction (VACUUM cannot be).
 */
export async function liveTableVacuum(db: Queryable): Promise<void> {
  await db.query('VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON) message');
}
