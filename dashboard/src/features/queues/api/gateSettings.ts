import type { Queue, QueueChanges } from '@miniqueue/sdk';

/** The delivery gates as the settings form types them: an empty rate means "no limit". */
export interface GateForm {
  singleActiveConsumer: boolean;
  maxDeliveriesPerSecond: string;
}

export const gateFormOf = (queue: Queue): GateForm => ({
  singleActiveConsumer: queue.single_active_consumer,
  maxDeliveriesPerSecond: queue.max_deliveries_per_second === null ? '' : String(queue.max_deliveries_per_second),
});

export const gatesEdited = (queue: Queue, form: GateForm): boolean => {
  const initial = gateFormOf(queue);
  return form.singleActiveConsumer !== initial.singleActiveConsumer || form.maxDeliveriesPerSecond.trim() !== initial.maxDeliveriesPerSecond;
};

/** The contract's range (1..100000 a second), checked before sending; empty lifts the limit (null). */
export function gateChanges(queue: Queue, form: GateForm): { changes: QueueChanges; problem?: string } {
  const changes: QueueChanges = {};
  if (form.singleActiveConsumer !== queue.single_active_consumer) changes.singleActiveConsumer = form.singleActiveConsumer;
  const text = form.maxDeliveriesPerSecond.trim();
  if (text !== '' && !/^\d+$/.test(text)) return { changes, problem: 'Enter a whole number of deliveries a second, or leave it empty.' };
  const rate = text === '' ? null : Number(text);
  if (rate !== null && (rate < 1 || rate > 100_000)) return { changes, problem: 'Between 1 and 100000 a second.' };
  if (rate !== queue.max_deliveries_per_second) changes.maxDeliveriesPerSecond = rate;
  return { changes };
}

/** How the gates read to a viewer. */
export const consumersText = (queue: Queue) => (queue.single_active_consumer ? 'one at a time (single active consumer)' : 'all at once');
export const rateText = (queue: Queue) => (queue.max_deliveries_per_second ? `at most ${queue.max_deliveries_per_second} a second` : 'no limit');
