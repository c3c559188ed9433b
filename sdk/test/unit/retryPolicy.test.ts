import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../src/http/retryAfter.js';
import { backoffDelay, defaultRetryPolicy, delayBeforeRetry, retryPolicy } from '../../src/http/retryPolicy.js';
import { newIdempotencyKey } from '../../src/idempotency.js';

const policy = retryPolicy({ attempts: 5, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 });

describe('backoff', () => {
  it('doubles its ceiling on every retry up to the maximum, with full jitter below it', () => {
    const highest = (retry: number) => backoffDelay(policy, retry, () => 0.999999);
    expect([1, 2, 3, 4, 5, 6].map(highest)).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
  });

  it('spreads concurrent retries apart', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(policy, 4)));
    expect(delays.size).toBeGreaterThan(10);
  });

  it('stops when the attempts are used up', () => {
    expect(delayBeforeRetry(policy, 4, null)).not.toBeNull();
    expect(delayBeforeRetry(policy, 5, null)).toBeNull();
  });

  it('replaces the backoff with Retry-After, up to the longest accepted', () => {
    expect(delayBeforeRetry(policy, 1, 3000)).toBe(3000);
    expect(delayBeforeRetry(policy, 1, 0)).toBe(0);
    expect(delayBeforeRetry(policy, 1, 6000)).toBeNull();
  });

  it('treats attempts below 1 as a single attempt', () => {
    expect(retryPolicy({ attempts: 0 }).attempts).toBe(1);
    expect(retryPolicy({ attempts: undefined }).attempts).toBe(Number.POSITIVE_INFINITY);
  });

  it('stops when a retry would start more than maxElapsedMs after the first attempt', () => {
    const bounded = retryPolicy({ maxElapsedMs: 1000, baseDelayMs: 100, maxDelayMs: 100 });
    expect(delayBeforeRetry(bounded, 1, 500, undefined, 400)).toBe(500);
    expect(delayBeforeRetry(bounded, 1, 500, undefined, 600)).toBeNull();
    expect(delayBeforeRetry(bounded, 50, null, () => 0.5, 900)).toBe(50);
    expect(delayBeforeRetry(bounded, 50, null, () => 0.5, 951)).toBeNull();
  });

  it('by default, retries for 60 s whatever the number of attempts (a broker restart is ridden through)', () => {
    expect(defaultRetryPolicy).toMatchObject({ attempts: Number.POSITIVE_INFINITY, maxElapsedMs: 60_000 });
    expect(delayBeforeRetry(defaultRetryPolicy, 1000, null, () => 0.5, 30_000)).toBe(2500);
    expect(delayBeforeRetry(defaultRetryPolicy, 1000, null, () => 0.5, 57_500)).toBe(2500);
    expect(delayBeforeRetry(defaultRetryPolicy, 1000, null, () => 0.5, 57_501)).toBeNull();
  });
});

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Sun, 29 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs('Sun, 29 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('idempotency keys', () => {
  it('are random v4 UUIDs, also where crypto.randomUUID is missing (insecure browser pages)', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newIdempotencyKey()).toMatch(uuid);
    const original = globalThis.crypto.randomUUID;
    try {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
      const keys = new Set(Array.from({ length: 100 }, newIdempotencyKey));
      expect(keys.size).toBe(100);
      for (const key of keys) expect(key).toMatch(uuid);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
