import type { Pool } from '../db/pool.js';
import { ratesPrune } from '../db/queries/rates.js';
import { deleteInBatches } from './inBatches.js';
import type { Job } from './job.js';

/** Rates are kept this long (GET /dashboard/rates answers up to this window). */
export const RATE_RETENTION_HOURS = 24;
const BATCH = 10_000;

/** Deletes rate buckets older than a day, in batches, until none is left. Safe on every instance at once. */
export function ratePrune(pool: Pool): Job {
  return {
    name: 'rate-prune',
    runOnce: () => deleteInBatches((limit) => ratesPrune(pool, RATE_RETENTION_HOURS, limit), BATCH),
  };
}
