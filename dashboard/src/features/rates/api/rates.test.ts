import { describe, expect, it } from 'vitest';
import type { RateBucket } from '@miniqueue/sdk';
import { carryForward, lastMinuteRate, mergeBuckets, perSecond, total } from './rates';

const t0 = Date.UTC(2026, 11, 1, 10, 0, 0);
const bucket = (seconds: number, published: number, delivered = 0): RateBucket => ({
  at: new Date(t0 + seconds * 1000),
  published,
  enqueued: published * 2,
  delivered,
  acked: 0,
  nacked: 0,
  dead: 0,
  redelivered: 0,
  replayed: 0,
  depth: null,
});

describe('rate series', () => {
  it('replaces a bucket still filling, adds newer ones and drops what left the window', () => {
    const history = [bucket(0, 1), bucket(10, 2), bucket(20, 3)];
    const merged = mergeBuckets(history, [bucket(20, 30), bucket(30, 4)], 30);
    expect(merged.map((entry) => [entry.at.getTime() - t0, entry.published])).toEqual([
      [10_000, 2],
      [20_000, 30],
      [30_000, 4],
    ]);
  });

  it('turns counts into rates, the last minute from whole buckets only', () => {
    const buckets = [bucket(0, 100), ...Array.from({ length: 6 }, (_, n) => bucket(10 + n * 10, 50, 20)), bucket(70, 9999)];
    expect(perSecond(buckets.slice(0, 2), 'published')).toEqual([10, 5]);
    expect(lastMinuteRate(buckets, 'published')).toBe(5);
    expect(lastMinuteRate(buckets, 'delivered')).toBe(2);
    expect(lastMinuteRate([bucket(0, 5)], 'published')).toBe(0);
    expect(total(buckets, 'enqueued')).toBe(2 * (100 + 300 + 9999));
  });

  it('holds a depth until its next sample, and knows nothing before the first', () => {
    expect(carryForward([null, 3, null, null, 5, null])).toEqual([null, 3, 3, 3, 5, 5]);
  });
});
