import type { Pool } from '../db/pool.js';
import { messageClaimableCounts } from '../db/queries/messageClaimable.js';
import type { QueueWaiters } from './waiters.js';

/** How often queues with waiters are looked at, in case a notification was lost. */
export const RECHECK_INTERVAL_MS = 5_000;

/**
 * The safety net for long polls: a notification can be lost (a dropped LISTEN connection, a NOTIFY
 * that failed), so every few seconds one statement asks, for all queues that have waiters on this
 * instance, how many messages are claimable now, and wakes that many waiters. One statement per
 * interval, however many wait: 5,000 waiters that each looked again on their own cost 2,000
 * statements a second.
 */
export class WaiterRecheck {
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly pool: Pool,
    private readonly waiters: QueueWaiters,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.runOnce(), RECHECK_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  async runOnce(): Promise<void> {
    const queues = this.waiters.queues();
    if (queues.size === 0 || this.running) return;
    this.running = true;
    try {
      const counts = await messageClaimableCounts(this.pool, [...queues].map(([name, cap]) => ({ name, cap })));
      for (const [queue, claimable] of counts) if (claimable > 0) this.waiters.wake(queue, claimable);
    } catch (error) {
      this.log('could not recheck the queues that have waiters', error);
    } finally {
      this.running = false;
    }
  }
}
