import type { QueueStats } from '@miniqueue/sdk';
import { formatRate } from '../../../lib/chart';
import { formatAge, formatCount } from '../../../lib/format';

/**
 * When a queue needs attention: the conditions of the alert rules of prometheus/alerts.yml, with
 * their numbers, read from the broker's own counts over the same windows (GET /dashboard/queues).
 * The one difference: a rule waits out its `for:` (5 or 10 minutes) before it fires, the dashboard
 * flags a queue as soon as the condition holds. conditions.alerts.test.ts fails if a number here
 * and in the rules differ; dashboard/README.md lists each flag beside its rule.
 */
export const THRESHOLDS = {
  /** MiniQueueDeadLettersGrowing: over 10 minutes, more than 1 dead a minute AND more than 1 % of those settled (acked + dead). */
  dead: { windowMinutes: 10, perMinute: 1, shareOfSettled: 0.01 },
  /** MiniQueueBacklogGrowing: copies stored above acks over 5 minutes AND the depth higher than 5 minutes before. */
  backlog: { windowMinutes: 5 },
  /** MiniQueueOldestPendingTooOld: oldest pending over 300 s AND over 3 × its average over the last day. */
  oldest: { seconds: 300, timesUsual: 3, usualOverDays: 1 },
  /** MiniQueuePendingWithoutConsumers: pending, the oldest over 60 s, no consumer, nothing delivered in 5 minutes. */
  unconsumed: { oldestSeconds: 60, deliveredWindowMinutes: 5 },
  /** MiniQueuePushFailing: the queue's push endpoint failed this many deliveries in a row (or more). */
  push: { consecutiveFailures: 5 },
} as const;

export type AttentionReason = 'backlog' | 'oldest' | 'unconsumed' | 'dead' | 'push';

export interface Attention {
  reason: AttentionReason;
  /** What is wrong, in a few words with the numbers, e.g. "oldest pending 14 min". */
  summary: string;
}

type Stats = Pick<
  QueueStats,
  | 'pending'
  | 'oldest_pending_age_seconds'
  | 'oldest_pending_age_day_average_seconds'
  | 'enqueued_last_5_minutes'
  | 'acked_last_5_minutes'
  | 'delivered_last_5_minutes'
  | 'dead_last_10_minutes'
  | 'acked_last_10_minutes'
  | 'websocket_consumers'
  | 'pollers'
  | 'depth_history'
  | 'push_consecutive_failures'
  | 'attention'
>;

/**
 * How much the depth grew over the backlog window, from the per-minute history: from the newest
 * sample (the current minute's, or the last minute's in the seconds before the current one is
 * sampled) back to the sample that many minutes before it; null without both.
 */
function depthGrowth(history: readonly (number | null)[]): number | null {
  const newest = history.at(-1) !== null && history.at(-1) !== undefined ? history.length - 1 : history.length - 2;
  const now = history[newest];
  const before = history[newest - THRESHOLDS.backlog.windowMinutes];
  if (now === null || now === undefined || before === null || before === undefined) return null;
  return now - before;
}

const deadArriving = (row: Stats): boolean => {
  const { windowMinutes, shareOfSettled } = THRESHOLDS.dead;
  const perMinute = row.attention.dead_per_minute ?? THRESHOLDS.dead.perMinute;
  const dead = row.dead_last_10_minutes;
  return dead > perMinute * windowMinutes && dead > shareOfSettled * (row.acked_last_10_minutes + dead);
};

const tooOld = (row: Stats): boolean => {
  const usual = row.oldest_pending_age_day_average_seconds;
  const age = row.oldest_pending_age_seconds;
  const seconds = row.attention.oldest_pending_seconds ?? THRESHOLDS.oldest.seconds;
  return usual !== null && age > seconds && age > THRESHOLDS.oldest.timesUsual * usual;
};

const unconsumed = (row: Stats): boolean =>
  row.pending > 0 &&
  row.oldest_pending_age_seconds > THRESHOLDS.unconsumed.oldestSeconds &&
  row.websocket_consumers + row.pollers === 0 &&
  row.delivered_last_5_minutes === 0;

/**
 * Each condition a queue meets, most urgent first (what is lost or stuck before what is slow); none
 * for a muted queue. A queue's own thresholds (`attention`, its settings) replace the numbers of
 * THRESHOLDS they name; the alert rules keep THRESHOLDS for every queue.
 */
export function attentionOf(row: Stats): Attention[] {
  if (row.attention.muted) return [];
  const found: Attention[] = [];
  if (deadArriving(row)) {
    found.push({ reason: 'dead', summary: `${formatCount(row.dead_last_10_minutes)} dead in the last ${THRESHOLDS.dead.windowMinutes} min` });
  }
  // Each failed push brings its message closer to the dead-letter queue: next after what is lost.
  const pushFailures = row.push_consecutive_failures;
  if (pushFailures !== null && pushFailures >= THRESHOLDS.push.consecutiveFailures) {
    found.push({ reason: 'push', summary: `push failing, ${formatCount(pushFailures)} in a row` });
  }
  if (unconsumed(row)) {
    found.push({ reason: 'unconsumed', summary: `${formatCount(row.pending)} pending, no consumer` });
  }
  if (tooOld(row)) {
    found.push({
      reason: 'oldest',
      summary: `oldest pending ${formatAge(row.oldest_pending_age_seconds)}, usually ${formatAge(row.oldest_pending_age_day_average_seconds ?? 0)}`,
    });
  }
  const growth = depthGrowth(row.depth_history);
  const allowedGrowth = row.attention.backlog_growth ?? 0;
  if (row.enqueued_last_5_minutes > row.acked_last_5_minutes && growth !== null && growth > allowedGrowth) {
    const seconds = THRESHOLDS.backlog.windowMinutes * 60;
    found.push({
      reason: 'backlog',
      summary: `${formatRate(row.enqueued_last_5_minutes / seconds)}/s in, ${formatRate(row.acked_last_5_minutes / seconds)}/s acked, +${formatCount(growth)} in ${THRESHOLDS.backlog.windowMinutes} min`,
    });
  }
  return found;
}

export interface FlaggedQueue<T> {
  row: T;
  attention: Attention[];
}

/** The queues that need attention, those with the most reasons first, then by name. */
export function flaggedQueues<T extends Stats & { queue: string }>(rows: readonly T[]): FlaggedQueue<T>[] {
  return rows
    .map((row) => ({ row, attention: attentionOf(row) }))
    .filter((entry) => entry.attention.length > 0)
    .sort((a, b) => b.attention.length - a.attention.length || a.row.queue.localeCompare(b.row.queue));
}

export const needsAttention = (row: Stats): boolean => attentionOf(row).length > 0;
