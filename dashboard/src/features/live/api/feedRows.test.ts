import { describe, expect, it } from 'vitest';
import type { MonitorEvent } from '@miniqueue/sdk';
import { appendToFeed, describeRow, filterRows, shortenIds } from './feedRows';

const at = (ms: number, extra: Partial<MonitorEvent> = {}): MonitorEvent => ({
  eventType: 'PUBLISHED',
  queueName: 'q',
  detail: `Message ${ms} published to q`,
  count: 1,
  timestamp: new Date(1_700_000_000_000 + ms).toISOString(),
  ...extra,
});

describe('feed rows', () => {
  it('shows a slow feed event by event, newest first', () => {
    const rows = appendToFeed([], [at(0), at(1000), at(2000)]);
    expect(rows.map(describeRow)).toEqual(['Message 2000 published to q', 'Message 1000 published to q', 'Message 0 published to q']);
  });

  it('sums a fast feed into one row per second, type and queue', () => {
    const burst = Array.from({ length: 300 }, (_, n) => [at(n * 3), at(n * 3, { eventType: 'ACKED' }), at(n * 3, { queueName: 'other' })]).flat();
    const rows = appendToFeed([], burst);
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => [row.eventType, row.queueName, row.count])).toEqual([
      ['PUBLISHED', 'other', 300],
      ['ACKED', 'q', 300],
      ['PUBLISHED', 'q', 300],
    ]);
    expect(describeRow(rows[2])).toBe('300 messages published to q');
    expect(rows[2].details).toHaveLength(10);
  });

  it('counts a summary event for all its messages and keeps the newest seconds', () => {
    let rows = appendToFeed([], [at(0, { count: 500, detail: '500 messages published to q' }), at(10, { count: 2 })]);
    expect(rows[0].count).toBe(502);
    for (let second = 1; second <= 5; second++) rows = appendToFeed(rows, [at(second * 1000)], 3);
    expect(rows.map((row) => row.details[0])).toEqual(['Message 5000 published to q', 'Message 4000 published to q', 'Message 3000 published to q']);
  });

  it('filters by type and by queue, keeping the drop marker for a queue', () => {
    const rows = appendToFeed(
      [],
      [at(0), at(0, { eventType: 'ACKED', queueName: 'other' }), at(0, { eventType: 'EVENTS_DROPPED', queueName: null, count: 7 })],
    );
    expect(filterRows(rows, { queue: 'q' }).map((row) => row.eventType)).toEqual(['EVENTS_DROPPED', 'PUBLISHED']);
    expect(filterRows(rows, { eventType: 'ACKED' }).map((row) => row.queueName)).toEqual(['other']);
    expect(filterRows(rows, { eventType: 'ACKED', queue: 'q' })).toEqual([]);
  });

  it('shortens message ids where room is short', () => {
    expect(shortenIds('Message 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90 published to q')).toBe('Message 3f2a9c1e… published to q');
  });
});
