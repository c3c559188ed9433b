import { describe, expect, it } from 'vitest';
import { recentRate, ThroughputCounter } from './throughput';

const at = (type: string, count = 1) => ({ eventType: type, queueName: 'q', detail: 'for people only', count, timestamp: '' });

describe('throughput', () => {
  it('counts published and acked messages per second, and nothing else', () => {
    const counter = new ThroughputCounter(5);
    const t = 1_000_000_000_000;
    counter.record(at('PUBLISHED'), t);
    counter.record(at('PUBLISHED', 40), t + 200);
    counter.record(at('ACKED'), t + 1500);
    counter.record(at('CONSUMED'), t + 1500);
    counter.record(at('DEAD'), t + 1500);
    expect(counter.series(t + 1999)).toEqual({ published: [0, 0, 0, 41, 0], acked: [0, 0, 0, 0, 1] });
  });

  it('forgets what has left the window', () => {
    const counter = new ThroughputCounter(3);
    const t = 1_000_000_000_000;
    counter.record(at('PUBLISHED'), t);
    expect(counter.series(t + 2000).published).toEqual([1, 0, 0]);
    expect(counter.series(t + 3000).published).toEqual([0, 0, 0]);
  });

  it('averages the last seconds for the headline rate', () => {
    expect(recentRate([0, 0, 10, 20], 2)).toBe(15);
    expect(recentRate([], 10)).toBe(0);
  });
});
