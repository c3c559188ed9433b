import type { Pool } from '../db/pool.js';
import { ratesFlush } from '../db/queries/rates.js';
import { PeriodicPass } from '../lifecycle/periodicPass.js';
import { BUCKET_MS, bucketOf, type RateCounter } from './rateCounter.js';

/** Counts that could not be written are kept and tried again, but not for longer than the buckets are kept. */
const KEEP_UNWRITTEN_MS = 24 * 3600 * 1000;
/** A little after each bucket's end, so the bucket is whole on this instance's clock. */
const AFTER_BOUNDARY_MS = 50;

/**
 * Writes this instance's counts once per bucket, in one statement (db/queries/rates.ts), right
 * after each 5-second boundary, and once more when it stops, so a clean shutdown loses nothing.
 * The first instance to write after a boundary also samples every queue's depth for the bucket
 * that just ended. A write that fails (the database away) puts its counts back for the next one.
 * A write still running when the next boundary comes (a slow database) makes that one skip.
 */
export class RateRecorder extends PeriodicPass {
  constructor(
    private readonly pool: Pool,
    private readonly counter: RateCounter,
    onError: (message: string, error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    super({
      name: 'rate-recorder',
      schedule: { everyMs: BUCKET_MS, firstAfterMs: () => BUCKET_MS - (now() % BUCKET_MS) + AFTER_BOUNDARY_MS },
      failure: 'could not write message rates',
      onError,
    });
  }

  /** One write: what was counted, and the depth sample of the bucket that ended last. */
  protected pass(): Promise<void> {
    return this.write(true);
  }

  /** The counts of the last moments, without a sample (that bucket has not ended). */
  protected async afterLastPass(): Promise<void> {
    await this.write(false);
  }

  private async write(sample: boolean): Promise<void> {
    const snapshot = this.counter.take();
    const nothing = snapshot.queues.length + snapshot.topics.length + snapshot.pollers.length === 0;
    if (nothing && !sample) return;
    try {
      await ratesFlush(this.pool, snapshot, sample ? bucketOf(this.now()) - BUCKET_MS : null);
    } catch (error) {
      this.counter.restore(snapshot, this.now() - KEEP_UNWRITTEN_MS);
      throw error;
    }
  }
}
