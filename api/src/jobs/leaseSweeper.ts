import type { Pool } from '../db/pool.js';
import { messageExpireLeases } from '../db/queries/messageExpire.js';
import { announceLeftLease, recordLeftLeaseSpans } from '../broker/settle.js';
import { afterAdvance, promoteStalled } from '../broker/ordering.js';
import type { Changes } from '../broker/changes.js';
import type { Job } from './job.js';
import { now, tracing } from '../tracing/spans.js';

const BATCH = 500;

/**
 * Returns messages whose lease ran out to their queue (or to the dead letters when their retries
 * are used up), in batches, until none is left. Safe on any number of instances at once (SKIP
 * LOCKED). Also promotes ordering-key heads left stalled (broker/ordering.ts). Each batch is announced after its commit, so waiters,
 * sockets and the metrics hear of redeliveries.
 */
export function leaseSweeper(pool: Pool, changes: Changes): Job {
  return {
    name: 'lease-sweeper',
    async runOnce() {
      let total = 0;
      for (;;) {
        const traced = tracing.enabled;
        const started = traced ? now() : 0;
        const { own: rows, advanced } = await messageExpireLeases(pool, BATCH, traced);
        if (traced) recordLeftLeaseSpans(rows, 'expire', started);
        total += rows.length;
        if (rows.length > 0) announceLeftLease(changes, rows, 'REDELIVERED', 'EXPIRED_DEAD');
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
