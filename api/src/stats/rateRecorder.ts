import type { Pool } from '../db/pool.js';
import { ratesFlush } from '../db/queries/rates.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
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
 */
export class RateRecorder implements Service {
  readonly name = 'rate-recorder';
  private readonly life = new Lifecycle(this.name);
  private current?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly counter: RateCounter,
    private readonly log: (message: string, error?: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  start(): Promise<void> {
    return this.life.start(() => {
      const untilBoundary = BUCKET_MS - (this.now() % BUCKET_MS) + AFTER_BOUNDARY_MS;
      this.life.timers.after(untilBoundary, () => {
        this.tick();
        this.life.timers.every(BUCKET_MS, () => this.tick());
      });
    });
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      await this.current;
      await this.write(false);
    });
  }

  health() {
    return this.life.health();
  }

  /** A write a bucket; one still running (a slow database) makes the timer skip a turn. */
  private tick(): void {
    if (!this.current) void this.runOnce();
  }

  /**
   * One write: what was counted, and the depth sample of the bucket that ended last. Called while
   * a write runs, it writes again after that one (which took its counts before this call).
   */
  runOnce(): Promise<void> {
    const run = (this.current ?? Promise.resolve()).then(() => this.write(true));
    const tracked: Promise<void> = run.finally(() => {
      if (this.current === tracked) this.current = undefined;
    });
    this.current = tracked;
    return tracked;
  }

  private async write(sample: boolean): Promise<void> {
    const snapshot = this.counter.take();
    const nothing = snapshot.queues.length + snapshot.topics.length + snapshot.pollers.length === 0;
    if (nothing && !sample) return;
    try {
      await ratesFlush(this.pool, snapshot, sample ? bucketOf(this.now()) - BUCKET_MS : null);
      this.life.report(undefined);
    } catch (error) {
      this.counter.restore(snapshot, this.now() - KEEP_UNWRITTEN_MS);
      this.life.report(`could not write rates: ${error instanceof Error ? error.message : String(error)}`);
      this.log('could not write message rates', error);
    }
  }
}
