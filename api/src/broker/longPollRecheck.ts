import type { Pool } from '../db/pool.js';
import { messageClaimableCounts } from '../db/queries/messageClaimable.js';
import { PeriodicPass } from '../lifecycle/periodicPass.js';
import type { QueueWaiters } from './longPollWaiters.js';

/** How often queues with waiters are looked at, in case a notification was lost. */
export const RECHECK_INTERVAL_MS = 5_000;

/**
 * The safety net for long polls: a notification can be lost (a dropped LISTEN connection, a NOTIFY
 * that failed), so every few seconds one statement asks, for all queues that have waiters on this
 * instance, how many messages are claimable now, and wakes that many waiters. One statement per
 * interval, however many wait: 5,000 waiters that each looked again on their own cost 2,000
 * statements a second.
 */
export class WaiterRecheck extends PeriodicPass {
  constructor(
    private readonly pool: Pool,
    private readonly waiters: QueueWaiters,
    onError: (message: string, error: unknown) => void,
  ) {
    super({ name: 'waiter-recheck', schedule: { everyMs: RECHECK_INTERVAL_MS }, failure: 'could not recheck the queues that have waiters', onError });
  }

  protected async pass(): Promise<void> {
    const queues = this.waiters.queues();
    if (queues.size === 0) return;
    const counts = await messageClaimableCounts(
      this.pool,
      [...queues].map(([name, cap]) => ({ name, cap })),
    );
    for (const [queue, claimable] of counts) if (claimable > 0) this.waiters.wake(queue, claimable);
  }
}
