import type { Pool } from '../db/pool.js';
import { idempotencyDeleteExpired } from '../db/queries/idempotency.js';
import type { Job } from './job.js';

/** Forgets idempotency keys older than their time to live (a repeat after that publishes anew). */
export function idempotencyCleanup(pool: Pool, ttlHours: number): Job {
  return { name: 'idempotency-cleanup', runOnce: () => idempotencyDeleteExpired(pool, ttlHours) };
}
