import type { Pool } from '../db/pool.js';
import { messageExpireLeases } from '../db/queries/messageExpire.js';
import type { ReturnedRow } from '../db/queries/messageSettle.js';
import { announceLeftLease } from '../broker/settle.js';
import { afterAdvance, promoteStalled } from '../broker/ordering.js';
import type { Changes } from '../realtime/changes.js';
import type { Job } from './job.js';

const BATCH = 500;

/**
 * Returns messages whose lease ran out to their queue (or to the dead letters when their retries
 * are used up), in batches, until none is left. Safe on any number of instances at once (SKIP
 * LOCKED). Also promotes ordering-key heads left stalled (broker/ordering.ts). Each batch is announced after its commit, so waiters and sockets hear of redeliveries.
 */
export function leaseSweeper(pool: Pool, changes: Changes, onExpired: (rows: ReturnedRow[]) => void = () => undefined): Job {
  return {
    name: 'lease-sweeper',
    async runOnce() {
      let total = 0;
      for (;;) {
        const { own: rows, advanced } = await messageExpireLeases(pool, BATCH);
        total += rows.length;
        if (rows.length > 0) {
          announceLeftLease(changes, rows, 'REDELIVERED', 'EXPIRED_DEAD');
          onExpired(rows);
        }
        await afterAdvance(pool, changes, advanced);
        if (rows.length < BATCH) {
          // Ordering-key heads left stalled by an instance that died before promoting them.
          await promoteStalled(pool, changes);
          return total;
        }
      }
    },
  };
}
