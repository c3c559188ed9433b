import { Flags } from '@oclif/core';
import type { Queue, QueueAttention } from '@miniqueue/sdk';
import { EXIT, Failure } from './failure.js';

/** The queues:update flags of the dashboard's attention settings: a mute, and a threshold per flag ("default" its own number). */
export const attentionFlags = () => ({
  'attention-muted': Flags.boolean({
    summary: 'Never flag this queue as needing attention on the dashboard (--no-attention-muted flags it again); the alert rules still apply.',
    allowNo: true,
  }),
  'attention-oldest-pending': Flags.string({
    summary: 'Flag the oldest pending message only past this many seconds (1-2592000), or "default" (300).',
  }),
  'attention-backlog-growth': Flags.string({
    summary: 'Flag intake above delivery only when the depth grew by more than this many messages in 5 minutes (0-1000000000), or "default" (0).',
  }),
  'attention-dead-per-minute': Flags.string({
    summary: 'Flag dead letters only above this many a minute over 10 minutes (0-1000000, decimals allowed), or "default" (1).',
  }),
});

export interface AttentionFlagValues {
  'attention-muted'?: boolean;
  'attention-oldest-pending'?: string;
  'attention-backlog-growth'?: string;
  'attention-dead-per-minute'?: string;
}

export const attentionGiven = (flags: AttentionFlagValues): boolean =>
  flags['attention-muted'] !== undefined ||
  flags['attention-oldest-pending'] !== undefined ||
  flags['attention-backlog-growth'] !== undefined ||
  flags['attention-dead-per-minute'] !== undefined;

/** A threshold from `min` to `max`; "default" is null on the wire. */
function threshold(flag: string, raw: string | undefined, range: { min: number; max: number; whole: boolean }, current: number | null): number | null {
  if (raw === undefined) return current;
  if (raw === 'default') return null;
  const value = Number(raw);
  const form = range.whole ? /^\d+$/ : /^\d+(\.\d+)?$/;
  if (!form.test(raw) || value < range.min || value > range.max) {
    throw new Failure(`--${flag} must be ${range.min}-${range.max} or "default", got ${raw}`, 'See `miniqueue queues:update --help`.', EXIT.usage);
  }
  return value;
}

/** The queue's attention settings with the flags given applied (the broker takes them as a whole). */
export function attentionWith(flags: AttentionFlagValues, queue: Queue): QueueAttention {
  const current = queue.attention ?? { muted: false, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null };
  return {
    muted: flags['attention-muted'] ?? current.muted,
    oldest_pending_seconds: threshold(
      'attention-oldest-pending',
      flags['attention-oldest-pending'],
      { min: 1, max: 2_592_000, whole: true },
      current.oldest_pending_seconds,
    ),
    backlog_growth: threshold(
      'attention-backlog-growth',
      flags['attention-backlog-growth'],
      { min: 0, max: 1_000_000_000, whole: true },
      current.backlog_growth,
    ),
    dead_per_minute: threshold(
      'attention-dead-per-minute',
      flags['attention-dead-per-minute'],
      { min: 0, max: 1_000_000, whole: false },
      current.dead_per_minute,
    ),
  };
}

/** "muted", "the defaults", or the thresholds the queue has of its own. */
export function describeAttention(queue: Queue): string {
  const attention = queue.attention;
  if (!attention) return 'the defaults';
  if (attention.muted) return 'muted (never flagged on the dashboard)';
  const own = [
    attention.oldest_pending_seconds === null ? undefined : `oldest pending over ${attention.oldest_pending_seconds}s`,
    attention.backlog_growth === null ? undefined : `backlog growth over ${attention.backlog_growth} in 5 min`,
    attention.dead_per_minute === null ? undefined : `over ${attention.dead_per_minute} dead/min`,
  ].filter((part) => part !== undefined);
  return own.length === 0 ? 'the defaults' : own.join(', ');
}
