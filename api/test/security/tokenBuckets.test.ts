import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../src/auth/tokenBuckets.js';

describe('TokenBuckets', () => {
  it('allows a burst, then the rate, and says how long to wait', () => {
    let now = 0;
    const buckets = new TokenBuckets(2, 3, () => now);
    expect([buckets.take('k'), buckets.take('k'), buckets.take('k')]).toEqual([0, 0, 0]);
    expect(buckets.take('k')).toBe(1);
    now += 500; // one token back at 2 per second
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBe(1);
    expect(buckets.take('other')).toBe(0);
  });

  it('takes back a token given back, but never holds more than the burst', () => {
    const buckets = new TokenBuckets(0.01, 2, () => 0);
    expect([buckets.take('k'), buckets.take('k'), buckets.take('k')]).toEqual([0, 0, 100]);
    buckets.giveBack('k');
    expect(buckets.take('k')).toBe(0);
    buckets.giveBack('k');
    buckets.giveBack('k');
    buckets.giveBack('k');
    expect([buckets.take('k'), buckets.take('k'), buckets.take('k')]).toEqual([0, 0, 100]);
  });

  it('rounds the wait up to whole seconds for slow rates', () => {
    let now = 0;
    const buckets = new TokenBuckets(0.1, 1, () => now);
    expect(buckets.take('k')).toBe(0);
    expect(buckets.take('k')).toBe(10);
    now += 4_000;
    expect(buckets.take('k')).toBe(6);
  });

  it('forgets buckets that have refilled', () => {
    let now = 0;
    const buckets = new TokenBuckets(10, 10, () => now);
    for (let i = 0; i < 100; i += 1) buckets.take(`k${i}`);
    expect(buckets.size).toBe(100);
    now += 61_000;
    buckets.take('fresh');
    expect(buckets.size).toBe(1);
  });

  it('never grows past its key limit', () => {
    const buckets = new TokenBuckets(1, 5, () => 0, 50);
    for (let i = 0; i < 500; i += 1) buckets.take(`k${i}`);
    expect(buckets.size).toBeLessThanOrEqual(50);
  });

  it('says what take() would answer without taking a token', () => {
    let now = 0;
    const buckets = new TokenBuckets(1, 2, () => now);
    expect([buckets.wait('k'), buckets.wait('k'), buckets.wait('k')]).toEqual([0, 0, 0]);
    expect([buckets.take('k'), buckets.take('k')]).toEqual([0, 0]);
    expect(buckets.wait('k')).toBe(1);
    now += 1_000;
    expect(buckets.wait('k')).toBe(0);
  });
});
