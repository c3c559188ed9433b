import type { MonitorEvent } from '@miniqueue/sdk';

export interface Series {
  /** Messages per second, oldest first, one entry per second of the window. */
  published: number[];
  acked: number[];
}

/**
 * Published and acked messages per second over the last `windowSeconds`, counted from the live
 * feed as it arrives (the browser's clock, so the chart's "now" is the reader's now).
 */
export class ThroughputCounter {
  private readonly buckets = new Map<number, { published: number; acked: number }>();

  constructor(private readonly windowSeconds = 300) {}

  record(event: MonitorEvent, nowMs = Date.now()): void {
    const kind = event.eventType === 'PUBLISHED' ? 'published' : event.eventType === 'ACKED' ? 'acked' : null;
    if (!kind) return;
    const second = Math.floor(nowMs / 1000);
    const bucket = this.buckets.get(second) ?? { published: 0, acked: 0 };
    // A summary of a burst stands for `count` messages.
    bucket[kind] += event.count;
    this.buckets.set(second, bucket);
    this.prune(second);
  }

  series(nowMs = Date.now()): Series {
    const now = Math.floor(nowMs / 1000);
    this.prune(now);
    const published: number[] = [];
    const acked: number[] = [];
    for (let second = now - this.windowSeconds + 1; second <= now; second++) {
      const bucket = this.buckets.get(second);
      published.push(bucket?.published ?? 0);
      acked.push(bucket?.acked ?? 0);
    }
    return { published, acked };
  }

  private prune(now: number): void {
    for (const second of this.buckets.keys()) if (second <= now - this.windowSeconds) this.buckets.delete(second);
  }
}

/** The average rate over the last `seconds` of a series, for the headline numbers. */
export function recentRate(values: number[], seconds = 10): number {
  const tail = values.slice(-seconds);
  if (tail.length === 0) return 0;
  return tail.reduce((sum, value) => sum + value, 0) / tail.length;
}
