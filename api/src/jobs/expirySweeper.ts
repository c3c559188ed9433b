import type { Pool } from '../db/pool.js';
import { messageExpireTtl } from '../db/queries/messageTtl.js';
import { afterAdvance } from '../broker/ordering.js';
import { transitionsOf, type Changes } from '../broker/changes.js';
import type { Job } from './job.js';
import { deleteInBatches } from './inBatches.js';

const BATCH = 500;

/**
 * Moves messages whose time to live ran out (expires_in_seconds, message_ttl_seconds) out of their
 * queues, in batches of 500 until none is left: to the dead letters (TTL_EXPIRED) or dropped, as
 * each queue says. Claims never deliver them meanwhile (db/queries/messageRow.ts NOT_EXPIRED), so
 * the sweep only decides how soon they leave, not whether they are delivered. Safe on any number
 * of instances at once (SKIP LOCKED). Each batch is announced after its commit.
 */
export function expirySweeper(pool: Pool, changes: Changes): Job {
  return {
    name: 'expiry-sweeper',
    runOnce: () =>
      deleteInBatches(async (limit) => {
        const { own: rows, advanced } = await messageExpireTtl(pool, limit);
        const dead = rows.filter((row) => row.dead);
        if (dead.length > 0)
          changes.committed(
            transitionsOf(
              'TTL_DEAD',
              dead.map((row) => ({ queue: row.queue_name, id: row.id })),
            ),
          );
        await afterAdvance(pool, changes, advanced);
        return rows.length;
      }, BATCH),
  };
}
