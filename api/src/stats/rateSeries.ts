import { NotFoundError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import { queueExists } from '../db/queries/queue.js';
import { queueActivity, ratesSeries, type RateSource } from '../db/queries/rates.js';
import { statsByQueue } from '../db/queries/stats.js';
import { BUCKET_MS, bucketOf } from './rateCounter.js';

/** More buckets than this in one answer and the resolution is raised instead. */
export const MAX_BUCKETS = 1_440;
const STEP = BUCKET_MS / 1000;

/**
 * Windows longer than this are answered in whole minutes, from the per-minute totals: over a day of
 * 50 queues that reads 72,000 rows instead of 864,000 (bench/ratesExplain.ts: 1.3 s → see there).
 */
export const MINUTES_AFTER_SECONDS = 3_600;
const MINUTE = 60;

/**
 * The asked resolution, raised to a multiple of the bucket so that the window fits MAX_BUCKETS,
 * and to a multiple of a minute for windows longer than MINUTES_AFTER_SECONDS.
 */
export function resolutionFor(windowSeconds: number, asked: number): number {
  const least = Math.max(asked, Math.ceil(windowSeconds / MAX_BUCKETS / STEP) * STEP);
  return windowSeconds > MINUTES_AFTER_SECONDS ? Math.ceil(least / MINUTE) * MINUTE : least;
}

/** Whole minutes are read from the per-minute totals, anything finer from the buckets. */
export const sourceFor = (resolutionSeconds: number): RateSource => (resolutionSeconds % MINUTE === 0 ? 'minutes' : 'buckets');

/** GET /dashboard/rates: the buckets of the last `windowSeconds`, broker-wide or of one queue. */
export async function rateSeries(db: Queryable, query: { queue?: string; windowSeconds: number; resolutionSeconds: number }) {
  const queue = query.queue ?? null;
  if (queue !== null && !(await queueExists(db, queue))) throw new NotFoundError('queue_not_found', `No queue found with the name ${queue}`);
  const resolution = resolutionFor(query.windowSeconds, query.resolutionSeconds);
  const now = Date.now();
  // The window ends with the current bucket; it starts `windowSeconds` before that bucket's end.
  const end = Math.floor(now / (resolution * 1000)) * resolution * 1000 + resolution * 1000;
  const rows = await ratesSeries(db, { queue, fromMs: end - query.windowSeconds * 1000, resolutionSeconds: resolution, source: sourceFor(resolution) });
  const buckets = rows.map((row) => ({ ...row, at: row.at.toISOString() }));
  const last = rows.at(-1)?.at.getTime() ?? end - resolution * 1000;
  return {
    queue,
    window_seconds: query.windowSeconds,
    resolution_seconds: resolution,
    from: buckets[0]?.at ?? new Date(last).toISOString(),
    to: new Date(last + resolution * 1000).toISOString(),
    buckets,
  };
}

/** GET /dashboard/queues: the counts of every queue, with its rates, consumers and depth history. */
export async function queueStatsWithActivity(db: Queryable) {
  const [stats, activity] = await Promise.all([statsByQueue(db), queueActivity(db, bucketOf(Date.now()))]);
  const byQueue = new Map(activity.map((row) => [row.queue, row]));
  const idle = {
    enqueued_per_second: 0,
    delivered_per_second: 0,
    acked_per_second: 0,
    enqueued_last_5_minutes: 0,
    delivered_last_5_minutes: 0,
    acked_last_5_minutes: 0,
    dead_last_10_minutes: 0,
    acked_last_10_minutes: 0,
    oldest_pending_age_day_average_seconds: null,
    websocket_consumers: 0,
    pollers: 0,
    depth_history: [],
  };
  return stats.map((row) => {
    const { queue: _, ...extra } = byQueue.get(row.queue) ?? { queue: row.queue, ...idle };
    return { ...row, ...extra };
  });
}
