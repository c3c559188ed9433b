import { LIMITS, type Fairness, type Queue, type QueueChanges } from '@miniqueue/sdk';
import { optionalWholeNumber } from '../../../lib/wholeNumber';

const { min, max } = LIMITS.maxInFlightPerKey;

/** How a queue shares its deliveries out, in words: the values are the contract's. */
export const FAIRNESS_LABELS: Record<Fairness, string> = {
  none: 'None: oldest first',
  by_key: 'By group key: each key in turn',
};

/** A queue's fairness in words: fixed when it was created; only the per-key limit can change. */
export function fairnessText(queue: Pick<Queue, 'fairness' | 'max_in_flight_per_key'>): string {
  if (queue.fairness !== 'by_key') return 'none (oldest first)';
  const limit = queue.max_in_flight_per_key === null ? 'no limit per key' : `at most ${queue.max_in_flight_per_key} in flight per key`;
  return `by group key, in turn (fixed when the queue was created); ${limit}`;
}

/** An empty limit is null (none); otherwise a whole number in the contract's range, or what is wrong with it. */
export const perKeyLimitOf = (text: string): number | null | string =>
  optionalWholeNumber(text, LIMITS.maxInFlightPerKey, {
    notWhole: 'Enter a whole number of messages, or leave empty for no limit.',
    outOfRange: `Between ${min} and ${max}, or empty for no limit.`,
  });

/** The per-key limit as the settings form types it: empty means "no limit". */
export interface FairnessForm {
  maxInFlightPerKey: string;
}

export const fairnessFormOf = (queue: Queue): FairnessForm => ({
  maxInFlightPerKey: queue.max_in_flight_per_key === null ? '' : String(queue.max_in_flight_per_key),
});

export const fairnessEdited = (queue: Queue, form: FairnessForm): boolean => form.maxInFlightPerKey.trim() !== fairnessFormOf(queue).maxInFlightPerKey;

/** Adds the per-key limit to `changes` when it differs from the queue's; a bad one goes to `problems` instead. */
export function fairnessChanges(queue: Queue, form: FairnessForm, changes: QueueChanges, problems: Partial<Record<'maxInFlightPerKey', string>>): void {
  const limit = perKeyLimitOf(form.maxInFlightPerKey);
  if (typeof limit === 'string') problems.maxInFlightPerKey = limit;
  else if (limit !== queue.max_in_flight_per_key) changes.maxInFlightPerKey = limit;
}
