import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { isLockContention } from './errors.js';
import { lockTimeoutOf, withTransaction, type Pool } from './pool.js';

/** How long the lock step waits at a time: well below PostgreSQL's deadlock_timeout (1 s by default). */
const LOCK_TRY_MS = 200;
const TABLES = 'message, message_dead, message_acked, ordering_group';

/**
 * Runs `work` in one transaction that first takes the message tables from writers (readers are not
 * blocked). A publish that read a queue before it was deleted has then committed, and its rows go
 * with the rest; one that starts later no longer sees the queue: no message outlives its queue.
 *
 * LOCK TABLE takes the four tables one after the other, and other statements take them in another
 * order (the lease sweep's promotion of stalled ordering-key heads takes ordering_group before
 * message). Waiting for one while holding another could close a cycle, which PostgreSQL breaks
 * after deadlock_timeout by aborting one side: an admin's 500 or a failed background pass. So the
 * lock step waits at most LOCK_TRY_MS, lets go of everything it holds when that runs out, and
 * tries again after a short jittered pause: the other side never waits long enough to be aborted.
 * Past the pool's lock timeout the last 55P03 stands (503: try again).
 */
export async function withMessageTablesLocked<T>(pool: Pool, work: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  const lockTimeoutMs = lockTimeoutOf(pool);
  const deadline = Date.now() + lockTimeoutMs;
  for (;;) {
    let lockStepFailure: unknown;
    try {
      return await withTransaction(pool, async (tx) => {
        try {
          await tx.query(
            `SET LOCAL lock_timeout = ${LOCK_TRY_MS}; LOCK TABLE ${TABLES} IN SHARE ROW EXCLUSIVE MODE; SET LOCAL lock_timeout = ${lockTimeoutMs}`,
          );
        } catch (error) {
          lockStepFailure = error;
          throw error;
        }
        return work(tx);
      });
    } catch (error) {
      const retry = error === lockStepFailure && isLockContention(error) && Date.now() + LOCK_TRY_MS < deadline;
      if (!retry) throw error;
    }
    await sleep(20 + Math.random() * 80);
  }
}
