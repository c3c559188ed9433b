import { describe, expect, it } from 'vitest';
import { PeriodicPass } from '../../src/lifecycle/periodicPass.js';

/** A pass that takes `ms` and records how many ran at once; fails while `failing` is set. */
class SlowPass extends PeriodicPass {
  running = 0;
  mostAtOnce = 0;
  passes = 0;
  finished = 0;
  failing = false;
  afterLast = 0;

  constructor(
    everyMs: number,
    private readonly ms: number,
    readonly errors: string[] = [],
  ) {
    super({ name: 'slow', schedule: { everyMs }, failure: 'slow pass failed', onError: (message) => errors.push(message) });
  }

  protected async pass(): Promise<void> {
    this.passes += 1;
    this.running += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.running);
    await new Promise((resolve) => setTimeout(resolve, this.ms));
    this.running -= 1;
    this.finished += 1;
    if (this.failing) throw new Error('database away');
  }

  protected async afterLastPass(): Promise<void> {
    this.afterLast = this.finished;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('periodic pass', () => {
  it('never runs two passes at once when a pass takes longer than the interval', async () => {
    const slow = new SlowPass(5, 40);
    await slow.start();
    await sleep(200);
    await slow.stop();
    expect(slow.passes).toBeGreaterThan(1);
    expect(slow.mostAtOnce).toBe(1);
    // Ticks that came during a pass were skipped, not queued: about one pass per 40 ms, not per 5.
    expect(slow.passes).toBeLessThanOrEqual(8);
  });

  it('a stop waits for the pass in progress, then runs afterLastPass', async () => {
    const slow = new SlowPass(10, 100);
    await slow.start();
    await sleep(30);
    expect(slow.running).toBe(1);
    await slow.stop();
    expect(slow.running).toBe(0);
    expect(slow.afterLast).toBe(slow.finished);
    const passes = slow.passes;
    await sleep(50);
    expect(slow.passes).toBe(passes);
  });

  it('runOnce during a pass runs another right after it, never beside it', async () => {
    const slow = new SlowPass(60_000, 30);
    await slow.start();
    await Promise.all([slow.runOnce(), slow.runOnce(), slow.runOnce()]);
    expect(slow.passes).toBe(3);
    expect(slow.mostAtOnce).toBe(1);
    await slow.stop();
  });

  it('reports a failed pass in health and logs it, until a pass succeeds', async () => {
    const slow = new SlowPass(60_000, 1);
    await slow.start();
    slow.failing = true;
    await slow.runOnce();
    expect(slow.health()).toEqual({ name: 'slow', state: 'running', problem: 'slow pass failed: database away' });
    expect(slow.errors).toEqual(['slow pass failed']);
    slow.failing = false;
    await slow.runOnce();
    expect(slow.health()).toEqual({ name: 'slow', state: 'running' });
    await slow.stop();
  });
});
