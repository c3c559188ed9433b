import { describe, expect, it } from 'vitest';
import type { QueueAttention } from '@miniqueue/sdk';
import { attentionOf, flaggedQueues } from './conditions';

/** A healthy queue: a little waits, consumers keep up (all acked), nothing dies, the oldest as usual. */
const healthy = {
  queue: 'ok',
  pending: 12,
  oldest_pending_age_seconds: 2,
  oldest_pending_age_day_average_seconds: 2 as number | null,
  enqueued_last_5_minutes: 9_000,
  delivered_last_5_minutes: 9_000,
  acked_last_5_minutes: 9_000,
  dead_last_10_minutes: 0,
  acked_last_10_minutes: 18_000,
  websocket_consumers: 1,
  pollers: 2,
  depth_history: Array.from({ length: 60 }, (): number | null => 12),
  push_consecutive_failures: null as number | null,
  attention: { muted: false, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null } as QueueAttention,
};
const reasons = (row: typeof healthy) => attentionOf(row).map((entry) => entry.reason);
const rising = [...healthy.depth_history.slice(0, 54), 12, 20, 30, 40, 50, 60];

describe('when a queue needs attention', () => {
  it('flags nothing on a queue that keeps up', () => {
    expect(attentionOf(healthy)).toEqual([]);
    const empty = { ...healthy, pending: 0, oldest_pending_age_seconds: 0, websocket_consumers: 0, pollers: 0, delivered_last_5_minutes: 0 };
    expect(reasons({ ...empty, enqueued_last_5_minutes: 0, acked_last_5_minutes: 0 })).toEqual([]);
  });

  it('flags the queue of the report: 18,714 deep, 32/s in, 11/s acked, oldest 14 minutes where it is usually 1', () => {
    const history = [...Array.from({ length: 54 }, (_, n) => 10_000 + n * 100), 17_200, 17_500, 17_800, 18_100, 18_400, 18_714];
    const row = {
      ...healthy,
      pending: 18_714,
      oldest_pending_age_seconds: 14 * 60,
      oldest_pending_age_day_average_seconds: 60,
      enqueued_last_5_minutes: 32 * 300,
      delivered_last_5_minutes: 11 * 300,
      acked_last_5_minutes: 11 * 300,
      depth_history: history,
    };
    expect(attentionOf(row)).toEqual([
      { reason: 'oldest', summary: 'oldest pending 14 min, usually 1 min' },
      { reason: 'backlog', summary: '32/s in, 11/s acked, +1,514 in 5 min' },
    ]);
  });

  it('flags dead letters arriving at over one a minute for 10 minutes and over 1 % of those settled', () => {
    expect(reasons({ ...healthy, dead_last_10_minutes: 10, acked_last_10_minutes: 0 })).toEqual([]);
    expect(attentionOf({ ...healthy, dead_last_10_minutes: 11, acked_last_10_minutes: 0 })).toEqual([
      { reason: 'dead', summary: '11 dead in the last 10 min' },
    ]);
    // 11 of 1,100 settled is exactly 1 %: not over it. 12 of 1,101 is.
    expect(reasons({ ...healthy, dead_last_10_minutes: 11, acked_last_10_minutes: 1_089 })).toEqual([]);
    expect(reasons({ ...healthy, dead_last_10_minutes: 12, acked_last_10_minutes: 1_089 })).toEqual(['dead']);
  });

  it('flags the oldest pending over 300 s only when it is also over 3 × its average of the last day', () => {
    const usual = { ...healthy, oldest_pending_age_day_average_seconds: 100 };
    expect(reasons({ ...usual, oldest_pending_age_seconds: 300 })).toEqual([]);
    expect(reasons({ ...usual, oldest_pending_age_seconds: 301 })).toEqual(['oldest']);
    // A queue that usually waits 2 minutes: 6 minutes is not 3 × that, 6 min 1 s is.
    expect(reasons({ ...usual, oldest_pending_age_day_average_seconds: 120, oldest_pending_age_seconds: 360 })).toEqual([]);
    expect(reasons({ ...usual, oldest_pending_age_day_average_seconds: 120, oldest_pending_age_seconds: 361 })).toEqual(['oldest']);
    // No sample yet (a broker just started): nothing to compare with, as the rule has only the current value.
    expect(reasons({ ...usual, oldest_pending_age_day_average_seconds: null, oldest_pending_age_seconds: 900 })).toEqual([]);
  });

  it('flags pending messages nobody consumes once the oldest has waited a minute and nothing was delivered in 5 minutes', () => {
    const alone = { ...healthy, websocket_consumers: 0, pollers: 0, delivered_last_5_minutes: 0, enqueued_last_5_minutes: 0, acked_last_5_minutes: 0 };
    expect(reasons({ ...alone, oldest_pending_age_seconds: 61, oldest_pending_age_day_average_seconds: 61 })).toEqual(['unconsumed']);
    expect(reasons({ ...alone, oldest_pending_age_seconds: 60 })).toEqual([]);
    // Something delivered them (a push endpoint, a consumer gone a minute ago): not unconsumed.
    expect(reasons({ ...alone, oldest_pending_age_seconds: 61, delivered_last_5_minutes: 1 })).toEqual([]);
    expect(reasons({ ...alone, oldest_pending_age_seconds: 61, pending: 0 })).toEqual([]);
  });

  it('flags a push endpoint that failed 5 deliveries in a row, not one that failed fewer or has none', () => {
    expect(attentionOf({ ...healthy, push_consecutive_failures: 5 })).toEqual([{ reason: 'push', summary: 'push failing, 5 in a row' }]);
    expect(reasons({ ...healthy, push_consecutive_failures: 4 })).toEqual([]);
    expect(reasons({ ...healthy, push_consecutive_failures: 0 })).toEqual([]);
    expect(reasons({ ...healthy, push_consecutive_failures: null })).toEqual([]);
  });

  it('flags copies stored above acks over 5 minutes only when the depth also grew over them', () => {
    const faster = { ...healthy, enqueued_last_5_minutes: 12_000, acked_last_5_minutes: 6_000 };
    expect(reasons(faster)).toEqual([]);
    expect(reasons({ ...faster, depth_history: rising })).toEqual(['backlog']);
    // Acks keep up, even if deliveries do not (they are the rule's measure): not flagged.
    expect(reasons({ ...faster, acked_last_5_minutes: 12_000, depth_history: rising })).toEqual([]);
    // The current minute not sampled yet: its last minute's sample stands for it.
    expect(reasons({ ...faster, depth_history: [...rising.slice(1), null] })).toEqual(['backlog']);
    // No sample five minutes ago (a broker just started): not known, not flagged.
    expect(reasons({ ...faster, depth_history: [...healthy.depth_history.slice(0, 54), null, 20, 30, 40, 50, 60] })).toEqual([]);
  });

  it("takes the queue's own thresholds where it has them, and flags nothing on a muted queue", () => {
    const old = { ...healthy, oldest_pending_age_seconds: 400, oldest_pending_age_day_average_seconds: 60 };
    expect(reasons(old)).toEqual(['oldest']);
    expect(reasons({ ...old, attention: { ...healthy.attention, oldest_pending_seconds: 600 } })).toEqual([]);
    expect(reasons({ ...old, attention: { ...healthy.attention, oldest_pending_seconds: 399 } })).toEqual(['oldest']);

    const growing = { ...healthy, enqueued_last_5_minutes: 9_100, depth_history: rising };
    expect(reasons(growing)).toEqual(['backlog']);
    // The depth grew by 48 over the 5 minutes: under a threshold of 50 that is the queue's normal.
    expect(reasons({ ...growing, attention: { ...healthy.attention, backlog_growth: 50 } })).toEqual([]);
    expect(reasons({ ...growing, attention: { ...healthy.attention, backlog_growth: 47 } })).toEqual(['backlog']);

    const dying = { ...healthy, dead_last_10_minutes: 30, acked_last_10_minutes: 100 };
    expect(reasons(dying)).toEqual(['dead']);
    expect(reasons({ ...dying, attention: { ...healthy.attention, dead_per_minute: 3 } })).toEqual([]);

    const everything = { ...old, ...growing, ...dying, oldest_pending_age_seconds: 400, push_consecutive_failures: 9 };
    expect(reasons(everything).length).toBeGreaterThan(2);
    expect(attentionOf({ ...everything, attention: { ...healthy.attention, muted: true } })).toEqual([]);
  });

  it('lists the flagged queues with the most reasons first, then by name', () => {
    const failing = { dead_last_10_minutes: 20, acked_last_10_minutes: 0 };
    const rows = [
      { ...healthy, queue: 'b', ...failing },
      healthy,
      { ...healthy, queue: 'c', ...failing, oldest_pending_age_seconds: 400 },
      { ...healthy, queue: 'a', ...failing },
    ];
    expect(flaggedQueues(rows).map((entry) => entry.row.queue)).toEqual(['c', 'a', 'b']);
  });
});
