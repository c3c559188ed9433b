import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { QueueStats } from '@miniqueue/sdk';
import { NeedsAttention } from './NeedsAttention';

const queue = (name: string, extra: Partial<QueueStats> = {}): QueueStats => ({
  queue: name,
  topic: 'orders',
  pending: 0,
  unacked: 0,
  acked: 0,
  dead: 0,
  oldest_pending_age_seconds: 0,
  enqueued_per_second: 0,
  delivered_per_second: 0,
  acked_per_second: 0,
  enqueued_last_5_minutes: 0,
  delivered_last_5_minutes: 0,
  acked_last_5_minutes: 0,
  dead_last_10_minutes: 0,
  acked_last_10_minutes: 0,
  oldest_pending_age_day_average_seconds: null,
  websocket_consumers: 1,
  pollers: 0,
  depth_history: [],
  push_consecutive_failures: null,
  attention: { muted: false, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null },
  ...extra,
});

describe('the overview\u2019s first answer', () => {
  it('says every queue looks healthy when none needs attention', () => {
    const html = renderToStaticMarkup(<NeedsAttention stats={[queue('a'), queue('b')]} />);
    expect(html).toContain('role="status"');
    expect(html).toContain('All 2 queues look healthy');
  });

  it('names each queue in trouble with its reasons, linked to its page', () => {
    const html = renderToStaticMarkup(<NeedsAttention stats={[queue('fine'), queue('failing', { dead_last_10_minutes: 14 })]} />);
    expect(html).toContain('1 queue needs attention');
    expect(html).toContain('href="/queues/failing"');
    expect(html).toContain('14 dead in the last 10 min');
    expect(html).not.toContain('/queues/fine');
  });

  it('leads to the queue list past eight flagged queues', () => {
    const stats = Array.from({ length: 10 }, (_, n) => queue(`q${n}`, { dead_last_10_minutes: 11 }));
    const html = renderToStaticMarkup(<NeedsAttention stats={stats} />);
    expect(html.match(/data-queue=/g)).toHaveLength(8);
    expect(html).toContain('href="/queues?attention=1"');
  });
});
