import { describe, expect, it } from 'vitest';
import { backoffDelayMs } from '../../src/lifecycle/backoff.js';
import { Lifecycle, serviceOf } from '../../src/lifecycle/lifecycle.js';
import { ServiceGroup } from '../../src/lifecycle/serviceGroup.js';

describe('backoffDelayMs', () => {
  it('doubles up to its cap, drawn from the upper half of each ceiling', () => {
    const backoff = { firstMs: 100, maxMs: 800 };
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, backoff, () => 0))).toEqual([50, 100, 200, 400, 400]);
    expect([0, 1, 2, 3, 4].map((attempt) => backoffDelayMs(attempt, backoff, () => 1))).toEqual([100, 200, 400, 800, 800]);
  });
});

describe('Lifecycle', () => {
  it('clears its timers on stop and arms none after it', async () => {
    const life = new Lifecycle('test');
    let ticks = 0;
    await life.start(() => life.timers.every(1, () => (ticks += 1)));
    await life.stop();
    expect(life.timers.size).toBe(0);
    expect(life.timers.after(1, () => (ticks += 1))).toBeUndefined();
    const seen = ticks;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ticks).toBe(seen);
    expect(life.health().state).toBe('stopped');
  });

  it('lets a stop that comes during the start wait for it, then undo it', async () => {
    const life = new Lifecycle('test');
    const steps: string[] = [];
    const started = life.start(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      steps.push('started');
    });
    await life.stop(() => steps.push('stopped'));
    await started;
    expect(steps).toEqual(['started', 'stopped']);
  });

  it('retries with backoff until the attempt succeeds, and not after the stop', async () => {
    const life = new Lifecycle('test');
    await life.start();
    let attempts = 0;
    await new Promise<void>((resolve) =>
      life.retry(
        { firstMs: 1, maxMs: 2 },
        async () => {
          attempts += 1;
          if (attempts < 3) throw new Error('not yet');
          resolve();
        },
        () => undefined,
      ),
    );
    expect(attempts).toBe(3);
    life.retry(
      { firstMs: 1, maxMs: 1 },
      async () => void (attempts += 1),
      () => undefined,
    );
    await life.stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(attempts).toBe(3);
  });
});

describe('ServiceGroup', () => {
  const recorded = (steps: string[], name: string, fail = false) =>
    serviceOf(name, {
      start: async () => {
        if (fail) throw new Error(`${name} failed`);
        steps.push(`start ${name}`);
      },
      stop: async () => void steps.push(`stop ${name}`),
    });

  it('stops in the reverse of the order it started', async () => {
    const steps: string[] = [];
    const group = new ServiceGroup();
    await group.startAll([recorded(steps, 'a'), recorded(steps, 'b'), recorded(steps, 'c')]);
    await group.stop();
    expect(steps).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });

  it('stops what had started when one fails to start', async () => {
    const steps: string[] = [];
    const group = new ServiceGroup();
    await expect(group.startAll([recorded(steps, 'a'), recorded(steps, 'b'), recorded(steps, 'c', true)])).rejects.toThrow('c failed');
    expect(steps).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    expect(group.health()).toEqual([]);
  });
});
