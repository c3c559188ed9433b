import type { MiniQueue, RateBucket, RateSeries } from '@miniqueue/sdk';

/** The default chart's span and step: an hour of 10-second buckets (360 points). */
export const HISTORY_SECONDS = 3600;
export const RESOLUTION_SECONDS = 10;

export const loadRates = (
  mq: MiniQueue,
  options: { queue?: string; windowSeconds: number; resolutionSeconds: number; signal?: AbortSignal },
): Promise<RateSeries> =>
  mq.dashboard.rates({ queue: options.queue, windowSeconds: options.windowSeconds, resolutionSeconds: options.resolutionSeconds, signal: options.signal });

/**
 * The series with fresh buckets in: a bucket of the same start replaces the old one (it was still
 * filling), newer ones are added, and what has left the window falls off the front.
 */
export function mergeBuckets(buckets: readonly RateBucket[], fresh: readonly RateBucket[], windowSeconds = HISTORY_SECONDS): RateBucket[] {
  const byStart = new Map<number, RateBucket>();
  for (const bucket of [...buckets, ...fresh]) byStart.set(bucket.at.getTime(), bucket);
  const sorted = [...byStart.values()].sort((a, b) => a.at.getTime() - b.at.getTime());
  const newest = sorted.at(-1)?.at.getTime() ?? 0;
  return sorted.filter((bucket) => bucket.at.getTime() > newest - windowSeconds * 1000);
}

export type RateField = 'published' | 'enqueued' | 'delivered' | 'acked' | 'dead';

/** One count per bucket as a rate per second. */
export const perSecond = (buckets: readonly RateBucket[], field: RateField, resolution = RESOLUTION_SECONDS): number[] =>
  buckets.map((bucket) => bucket[field] / resolution);

/**
 * The rate over the last minute, from whole buckets only: the newest bucket is still filling
 * (instances add their counts up to 5 seconds after it ends), so it would read low.
 */
export function lastMinuteRate(buckets: readonly RateBucket[], field: RateField, resolution = RESOLUTION_SECONDS): number {
  const whole = buckets.slice(0, -1).slice(-Math.max(1, Math.round(60 / resolution)));
  if (whole.length === 0) return 0;
  return whole.reduce((sum, bucket) => sum + bucket[field], 0) / (whole.length * resolution);
}

export const total = (buckets: readonly RateBucket[], field: RateField): number => buckets.reduce((sum, bucket) => sum + bucket[field], 0);

/** Each sample carried on until the next: a depth stays what it was until it is measured again. */
export function carryForward(values: readonly (number | null)[]): (number | null)[] {
  let last: number | null = null;
  return values.map((value) => (last = value ?? last));
}
