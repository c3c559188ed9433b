import type { Pool } from '../db/pool.js';
import { idempotencyDeleteExpired } from '../db/queries/idempotency.js';
import { historyReplayDeleteOld } from '../db/queries/historyReplay.js';
import type { Job } from './job.js';

/** Replay requests forgotten per pass: a handful of rows per replay ever made, never a backlog. */
const REPLAY_REQUESTS_PER_PASS = 10_000;

/**
 * Forgets idempotency keys older than their time to live (a repeat after that publishes anew), and
 * replay-from-history requests as old (a repeat of one then replays anew).
 */
export function idempotencyCleanup(pool: Pool, ttlHours: number): Job {
  return {
    name: 'idempotency-cleanup',
    runOnce: async () => {
      const keys = await idempotencyDeleteExpired(pool, ttlHours);
      await historyReplayDeleteOld(pool, ttlHours, REPLAY_REQUESTS_PER_PASS);
      return keys;
    },
  };
}
