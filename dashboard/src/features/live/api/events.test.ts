import { describe, expect, it } from 'vitest';
import type { MonitorEvent } from '@miniqueue/sdk';
import { appendToFeed, FEED_LIMIT } from './events';

const event = (n: number, extra: Partial<MonitorEvent> = {}): MonitorEvent => ({
  eventType: 'PUBLISHED',
  queueName: 'q',
  detail: `Message ${n} published to q`,
  count: 1,
  timestamp: new Date(1_700_000_000_000 + n * 1000).toISOString(),
  ...extra,
});

describe('monitor events', () => {
  it('keeps the newest 50, newest first', () => {
    let feed: MonitorEvent[] = [];
    for (let n = 0; n < 60; n += 3) feed = appendToFeed(feed, [event(n), event(n + 1), event(n + 2)]);
    expect(feed).toHaveLength(FEED_LIMIT);
    expect(feed[0]).toEqual(event(59));
    expect(feed[FEED_LIMIT - 1]).toEqual(event(10));
  });
});
