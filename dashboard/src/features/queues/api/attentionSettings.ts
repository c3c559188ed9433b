import type { Queue, QueueAttention, QueueChanges } from '@miniqueue/sdk';
import { THRESHOLDS } from '../../attention/api/conditions';
import { optionalWholeNumber } from '../../../lib/wholeNumber';

/** The queue's attention settings as typed: an empty threshold is the flag's default. */
export interface AttentionForm {
  attentionMuted: boolean;
  attentionOldestPendingSeconds: string;
  attentionBacklogGrowth: string;
  attentionDeadPerMinute: string;
}

export type AttentionField = 'attentionOldestPendingSeconds' | 'attentionBacklogGrowth' | 'attentionDeadPerMinute';

/** The contract's ranges (openapi.yaml QueueAttentionSettings). */
const RANGES = {
  attentionOldestPendingSeconds: { min: 1, max: 2_592_000 },
  attentionBacklogGrowth: { min: 0, max: 1_000_000_000 },
  attentionDeadPerMinute: { min: 0, max: 1_000_000 },
};

const text = (value: number | null | undefined) => (value == null ? '' : String(value));

/** Queues stored before attention settings existed read as the defaults. */
export const attentionOf = (queue: Queue): QueueAttention =>
  queue.attention ?? { muted: false, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null };

export const attentionFormOf = (queue: Queue): AttentionForm => {
  const attention = attentionOf(queue);
  return {
    attentionMuted: attention.muted,
    attentionOldestPendingSeconds: text(attention.oldest_pending_seconds),
    attentionBacklogGrowth: text(attention.backlog_growth),
    attentionDeadPerMinute: text(attention.dead_per_minute),
  };
};

export const attentionEdited = (queue: Queue, form: AttentionForm): boolean => {
  const initial = attentionFormOf(queue);
  return (
    form.attentionMuted !== initial.attentionMuted ||
    (['attentionOldestPendingSeconds', 'attentionBacklogGrowth', 'attentionDeadPerMinute'] as const).some((field) => form[field].trim() !== initial[field])
  );
};

/** Dead letters a minute may be a fraction (0.5: one every two minutes). */
function perMinuteOf(typed: string): number | null | string {
  const trimmed = typed.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  const { min, max } = RANGES.attentionDeadPerMinute;
  if (!/^\d+(\.\d+)?$/.test(trimmed) || value < min || value > max)
    return `A number from ${min} to ${max}, or empty for the default (${THRESHOLDS.dead.perMinute}).`;
  return value;
}

/** Adds `attention` to `changes` when any of it differs from the queue's (it is sent as a whole); a bad one goes to `problems`. */
export function attentionChanges(queue: Queue, form: AttentionForm, changes: QueueChanges, problems: Partial<Record<AttentionField, string>>): void {
  const whole = (field: 'attentionOldestPendingSeconds' | 'attentionBacklogGrowth', unit: string, fallback: number) =>
    optionalWholeNumber(form[field], RANGES[field], {
      notWhole: `Enter a whole number of ${unit}, or leave empty for the default (${fallback}).`,
      outOfRange: `Between ${RANGES[field].min} and ${RANGES[field].max} ${unit}, or empty for the default (${fallback}).`,
    });
  const oldest = whole('attentionOldestPendingSeconds', 'seconds', THRESHOLDS.oldest.seconds);
  const growth = whole('attentionBacklogGrowth', 'messages', 0);
  const perMinute = perMinuteOf(form.attentionDeadPerMinute);
  if (typeof oldest === 'string') problems.attentionOldestPendingSeconds = oldest;
  if (typeof growth === 'string') problems.attentionBacklogGrowth = growth;
  if (typeof perMinute === 'string') problems.attentionDeadPerMinute = perMinute;
  if (typeof oldest === 'string' || typeof growth === 'string' || typeof perMinute === 'string') return;
  const next: QueueAttention = { muted: form.attentionMuted, oldest_pending_seconds: oldest, backlog_growth: growth, dead_per_minute: perMinute };
  if (JSON.stringify(next) !== JSON.stringify(attentionOf(queue))) changes.attention = next;
}

/** "muted", or the thresholds that differ from the defaults, or "the defaults". */
export function attentionSummary(queue: Queue): string {
  const attention = attentionOf(queue);
  if (attention.muted) return 'muted: never flagged';
  const own = [
    attention.oldest_pending_seconds === null ? undefined : `oldest pending over ${attention.oldest_pending_seconds} s`,
    attention.backlog_growth === null ? undefined : `backlog growing by over ${attention.backlog_growth} in 5 min`,
    attention.dead_per_minute === null ? undefined : `over ${attention.dead_per_minute} dead a minute`,
  ].filter((part) => part !== undefined);
  return own.length === 0 ? 'the defaults' : `flagged at ${own.join(', ')}`;
}
