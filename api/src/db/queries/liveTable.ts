import type { Pool, Queryable } from '../pool.js';

/** Dead rows in the live message table, as the statistics collector last counted them. */
export async function liveTableDeadRows(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ dead: number }>(
    `SELECT coalesce((SELECT n_dead_tup FROM pg_stat_user_tables WHERE relid = 'message'::regclass), 0)::int AS dead`,
  );
  return rows[0].dead;
}

/**
 * Vacuums the live message table now, unless a vacuum (autovacuum, or another instance's) already
 * holds it: SKIP_LOCKED returns at once then. Not in a transaction (VACUUM cannot be), and without
 * the pool's statement timeout: a vacuum cancelled halfway has to start over, and it blocks no
 * reader or writer meanwhile. The connection gets its timeout back before it returns to the pool.
 */
export async function liveTableVacuum(pool: Pool): Promise<void> {
  const client = await pool.connect();
  let reset = false;
  try {
    await client.query('SET statement_timeout = 0');
    await client.query('VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON) message');
    await client.query('RESET statement_timeout');
    reset = true;
  } finally {
    // A connection whose timeout could not be put back is closed rather than lent to a publish.
    client.release(!reset);
  }
}
