import { describe, expect, it } from 'vitest';
import { QueueWaiters } from '../../src/broker/longPollWaiters.js';

describe('QueueWaiters', () => {
  it('wakes the requested number of waiters, oldest first', async () => {
    const waiters = new QueueWaiters();
    const woken: number[] = [];
    const far = Date.now() + 60_000;
    const waits = [0, 1, 2].map((i) =>
      waiters
        .register('q')
        .wait(far)
        .then(() => woken.push(i)),
    );
    waiters.wake('q', 2);
    await Promise.race([Promise.all(waits.slice(0, 2)), new Promise((r) => setTimeout(r, 1000))]);
    expect(woken).toEqual([0, 1]);
    expect(waiters.size()).toBe(1);
    waiters.close();
    await waits[2];
    expect(waiters.size()).toBe(0);
  });

  it('a wake that lands before wait() is not lost', async () => {
    const waiters = new QueueWaiters();
    const ticket = waiters.register('q');
    waiters.wake('q', 1);
    const started = Date.now();
    await ticket.wait(Date.now() + 60_000);
    expect(Date.now() - started).toBeLessThan(100);
  });

  it('times out and honours abort', async () => {
    const waiters = new QueueWaiters();
    const started = Date.now();
    await waiters.register('q').wait(Date.now() + 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    const controller = new AbortController();
    const aborted = waiters.register('q').wait(Date.now() + 60_000, controller.signal);
    controller.abort();
    await aborted;
    expect(waiters.size()).toBe(0);
  });
});
