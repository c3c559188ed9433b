import type { Pool } from '../db/pool.js';
import { liveTableDeadRows, liveTableVacuum } from '../db/queries/liveTable.js';
import type { Job } from './job.js';

/** Dead rows in the live table past which a pass vacuums it. */
export const DEAD_ROWS_THRESHOLD = 20_000;

/**
 * Keeps the live table's claim index free of dead entries between autovacuum's visits. Claims
 * start at the head of the claim index, where acked and claimed messages leave dead entries; a
 * burst of a million messages left a million of them for every claim to step over (consume + ack
 * fell to 0.7× its rate on a fresh table) until autovacuum, which visits a table at most once a
 * minute, came by. A pass costs one statistics read when there is nothing to do.
 */
export function liveTableVacuumJob(pool: Pool, threshold = DEAD_ROWS_THRESHOLD): Job {
  return {
    name: 'live-table-vacuum',
    async runOnce() {
      const dead = await liveTableDeadRows(pool);
      if (dead < threshold) return { dead, vacuumed: false };
      await liveTableVacuum(pool);
      return { dead, vacuumed: true };
    },
  };
}
