import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../src/broker/groupCommit.js';
import { UnavailableError } from '../../src/errors.js';

class Unreachable extends Error {}

/** A batch function that records what it was given and answers each request by a rule. */
function recorder(answer: (request: number) => number | Error, options: { failWhole?: (requests: number[]) => boolean } = {}) {
  const batches: number[][] = [];
  let running = 0;
  let mostAtOnce = 0;
  // Batches running at the same time finish together (one timer for them all), as statements sent
  // side by side do; a timer each could fire in different turns on a loaded machine.
  let wave: Promise<void> | undefined;
  const finishTogether = () =>
    (wave ??= new Promise<void>((resolve) =>
      setTimeout(() => {
        wave = undefined;
        resolve();
      }, 5),
    ));
  const run = async (requests: number[]) => {
    batches.push(requests);
    running += 1;
    mostAtOnce = Math.max(mostAtOnce, running);
    await finishTogether();
    running -= 1;
    if (options.failWhole?.(requests)) throw new Error('statement failed');
    return requests.map(answer);
  };
  return { run, batches, mostAtOnce: () => mostAtOnce };
}

const options = { maxBatch: 100, maxInFlight: 2, maxWaiting: 10_000, isFinal: (error: unknown) => error instanceof Unreachable };

describe('group commit', () => {
  it('sends requests of one turn of the event loop together, and the rest as slots free', async () => {
    const batcher = recorder((n) => n * 10);
    const group = new GroupCommit(batcher.run, options);
    const answers = await Promise.all(Array.from({ length: 250 }, (_, i) => group.submit(i)));
    expect(answers).toEqual(Array.from({ length: 250 }, (_, i) => i * 10));
    // 250 requests at once: batches of at most 100, never more than 2 running; the last 50 find both
    // slots free and are shared between them.
    expect(batcher.batches.map((batch) => batch.length)).toEqual([100, 100, 32, 18]);
    expect(batcher.mostAtOnce()).toBe(2);
    expect(group.stats).toMatchObject({ batches: 4, requests: 250 });
  });

  it('shares a burst that one statement could carry among the free slots, in chunks of at least 32', async () => {
    const batcher = recorder((n) => n);
    const group = new GroupCommit(batcher.run, { ...options, maxBatch: 256 });
    await Promise.all(Array.from({ length: 200 }, (_, i) => group.submit(i)));
    expect(batcher.batches.map((batch) => batch.length)).toEqual([100, 100]);
    expect(batcher.mostAtOnce()).toBe(2);
    await Promise.all(Array.from({ length: 40 }, (_, i) => group.submit(i)));
    expect(batcher.batches.slice(2).map((batch) => batch.length)).toEqual([32, 8]);
  });

  it('refuses a request beyond maxWaiting at once with 503 overloaded, and takes requests again once the list drains', async () => {
    const batcher = recorder((n) => n);
    const group = new GroupCommit(batcher.run, { ...options, maxBatch: 2, maxInFlight: 1, maxWaiting: 3 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => group.submit(i)));
    expect(results.slice(0, 3).map((r) => (r.status === 'fulfilled' ? r.value : r.reason))).toEqual([0, 1, 2]);
    for (const refused of results.slice(3)) {
      expect(refused.status).toBe('rejected');
      const error = (refused as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(UnavailableError);
      expect(error).toMatchObject({ status: 503, code: 'overloaded', retryAfterSeconds: 1 });
    }
    // Refused requests never reached a statement.
    expect(batcher.batches.flat()).toEqual([0, 1, 2]);
    expect(await group.submit(9)).toBe(9);
  });

  it('a lone request goes at once, alone', async () => {
    const batcher = recorder((n) => n);
    const group = new GroupCommit(batcher.run, options);
    expect(await group.submit(7)).toBe(7);
    expect(batcher.batches).toEqual([[7]]);
  });

  it('one request refused by the batch does not fail the others', async () => {
    const group = new GroupCommit(recorder((n) => (n === 3 ? new Error('no such topic') : n)).run, options);
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => group.submit(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 2, 'no such topic', 4]);
  });

  it('when the statement fails as a whole, each request is tried alone: only the one that breaks it fails', async () => {
    const batcher = recorder((n) => n, { failWhole: (requests) => requests.includes(13) });
    const group = new GroupCommit(batcher.run, options);
    const results = await Promise.allSettled([11, 12, 13, 14].map((n) => group.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(batcher.batches).toEqual([[11, 12, 13, 14], [11], [12], [13], [14]]);
  });

  it('an error no retry can mend fails the whole batch at once, without retries', async () => {
    let calls = 0;
    const group = new GroupCommit<number, number>(async () => {
      calls += 1;
      throw new Unreachable('database unavailable');
    }, options);
    const results = await Promise.allSettled([1, 2, 3].map((n) => group.submit(n)));
    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof Unreachable)).toBe(true);
    expect(calls).toBe(1);
  });
});
