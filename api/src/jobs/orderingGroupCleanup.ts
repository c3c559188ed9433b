import type { Pool } from '../db/pool.js';
import { orderingGroupsForgetIdle } from '../db/queries/orderingGroup.js';
import { deleteInBatches } from './inBatches.js';
import type { Job } from './job.js';

const BATCH = 10_000;

/**
 * Forgets the ordering groups with no live message left, in batches, until none is left: keys are
 * often used for a while and never again. Safe on every instance at once (SKIP LOCKED).
 */
export function orderingGroupCleanup(pool: Pool): Job {
  return {
    name: 'ordering-group-cleanup',
    runOnce: () => deleteInBatches((limit) => orderingGroupsForgetIdle(pool, limit), BATCH),
  };
}
