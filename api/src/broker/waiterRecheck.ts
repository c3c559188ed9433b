import type { Pool } from '../db/pool.js';
import { messageClaimableCounts } from '../db/queries/messageClaimable.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
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
export class WaiterRecheck implements Service {
  readonly name = 'waiter-recheck';
  private readonly life = new Lifecycle(this.name);
  /** The pass in progress: a stop waits for it. */
  private current?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly waiters: QueueWaiters,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  start(): Promise<void> {
    return this.life.start(() => this.life.timers.every(RECHECK_INTERVAL_MS, () => void this.runOnce()));
  }

  stop(): Promise<void> {
    return this.life.stop(() => this.current);
  }

  health() {
    return this.life.health();
  }

  runOnce(): Promise<void> {
    if (this.waiters.queues().size === 0 || this.current) return this.current ?? Promise.resolve();
    this.current = this.recheck().finally(() => (this.current = undefined));
    return this.current;
  }

  private async recheck(): Promise<void> {
    const queues = this.waiters.queues();
    try {
      const counts = await messageClaimableCounts(this.pool, [...queues].map(([name, cap]) => ({ name, cap })));
      for (const [queue, claimable] of counts) if (claimable > 0) this.waiters.wake(queue, claimable);
    } catch (error) {
      this.log('could not recheck the queues that have waiters', error);
    }
  }
}
