import type { Pool } from '../db/pool.js';
import { orderingGroupsForgetIdle } from '../db/queries/orderingGroup.js';
import type { Job } from './job.js';

const BATCH = 10_000;

/**
 * Forgets the ordering groups with no live message left, in batches, until none is left: keys are
 * often used for a while and never again. Safe on every instance at once (SKIP LOCKED).
 */
export function orderingGroupCleanup(pool: Pool): Job {
  return {
    name: 'ordering-group-cleanup',
    async runOnce() {
      let total = 0;
      for (;;) {
        const forgotten = await orderingGroupsForgetIdle(pool, BATCH);
        total += forgotten;
        if (forgotten < BATCH) return total;
      }
    },
  };
}
