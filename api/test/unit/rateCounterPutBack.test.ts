import { describe, expect, it } from 'vitest';
import { transitionsOf } from '../../src/broker/changes.js';
import { BUCKET_MS, RateCounter } from '../../src/stats/rateCounter.js';

describe('a put-back in the rates', () => {
  it('takes the delivery back from the bucket that counted the claim, however much later it comes', () => {
    let now = 10 * BUCKET_MS + 1_000;
    const counter = new RateCounter(() => now);
    const claimedAt = new Date(now);
    counter.transitions(
      transitionsOf('CONSUMED', [
        { queue: 'q', id: 'a' },
        { queue: 'q', id: 'b' },
      ]),
    );
    const first = counter.take();
    now += 3 * BUCKET_MS;
    counter.transitions(transitionsOf('RELEASED', [{ queue: 'q', id: 'a', availableAt: claimedAt.toISOString(), claimedAt }]));
    const second = counter.take();
    expect(first.queues.map(({ bucket, delivered }) => ({ bucket, delivered }))).toEqual([{ bucket: 10 * BUCKET_MS, delivered: 2 }]);
    // Added to what was written for that bucket (2 - 1); the bucket of the put-back itself counts no delivery.
    const delivered = second.queues.filter((row) => row.delivered !== 0).map(({ bucket, delivered }) => ({ bucket, delivered }));
    expect(delivered).toEqual([{ bucket: 10 * BUCKET_MS, delivered: -1 }]);
    expect(second.queues.every((row) => row.redelivered === 0)).toBe(true);
  });
});
