import type { Pool } from '../db/pool.js';
import { messageExpireLeases, type ExpiredRow } from '../db/queries/message.js';
import type { Job } from './job.js';

const BATCH = 500;

/**
 * Returns messages whose lease ran out to their queue (or to DEAD when their retries are used
 * up), in batches, until none is left. Safe on any number of instances at once (SKIP LOCKED).
 */
export function leaseSweeper(pool: Pool, onExpired: (rows: ExpiredRow[]) => void = () => undefined): Job {
  return {
    name: 'lease-sweeper',
    async runOnce() {
      let total = 0;
      for (;;) {
        const rows = await messageExpireLeases(pool, BATCH);
        total += rows.length;
        if (rows.length > 0) onExpired(rows);
        if (rows.length < BATCH) return total;
      }
    },
  };
}
