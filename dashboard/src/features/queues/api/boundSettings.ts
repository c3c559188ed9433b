import type { Overflow, Queue, QueueChanges } from '@miniqueue/sdk';

/** A bound as typed: empty means "no bound". */
export const boundText = (bound: number | null | undefined): string => (bound === null || bound === undefined ? '' : String(bound));

/** What a full queue does, in words; the values are the contract's. */
export const OVERFLOW_LABELS: Record<Overflow, string> = {
  reject_publish: 'Refuse the publish (429 queue_full)',
  reject_copy: "Refuse only this queue's copy",
  dead_letter_oldest: 'Dead-letter the oldest pending messages',
  drop_oldest: 'Delete the oldest pending messages',
};

/**
 * What each choice means beyond this queue: reject_publish refuses the whole publish, so a full
 * queue (a stalled consumer) also stops the other queues of its topic.
 */
export const OVERFLOW_HINTS: Record<Overflow, string> = {
  reject_publish:
    "The whole publish is refused: on a topic with other queues, this queue being full stops the publish for every queue of the topic. To keep them flowing, refuse only this queue's copy.",
  reject_copy: "Only this queue's copy is refused; the topic's other queues still get the message, and the publisher is told which queue refused.",
  dead_letter_oldest: 'The oldest pending messages move to the dead letters (reason OVERFLOW) to make room.',
  drop_oldest: 'The oldest pending messages are deleted to make room.',
};

/** The contract's ranges for the bounds. */
const MAXIMA = { maxMessages: 1_000_000_000, maxBytes: 1_099_511_627_776 } as const;

/** An empty bound is null (none); otherwise a whole number from 1 to its maximum. */
function boundOf(text: string, field: keyof typeof MAXIMA): number | null | string {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) return 'Enter a whole number, or leave empty for no bound.';
  const value = Number(trimmed);
  return value < 1 || value > MAXIMA[field] ? `Between 1 and ${MAXIMA[field]}, or empty for no bound.` : value;
}

export interface BoundsForm {
  maxMessages: string;
  maxBytes: string;
  overflow: Overflow;
}

export const boundsFormOf = (queue: Queue): BoundsForm => ({
  maxMessages: boundText(queue.max_messages),
  maxBytes: boundText(queue.max_bytes),
  overflow: queue.overflow ?? 'reject_publish',
});

export const boundsEdited = (queue: Queue, form: BoundsForm): boolean => {
  const initial = boundsFormOf(queue);
  return form.maxMessages.trim() !== initial.maxMessages || form.maxBytes.trim() !== initial.maxBytes || form.overflow !== initial.overflow;
};

/** Adds to `changes` the bounds that differ from the queue's; a bad one goes to `problems` instead. */
export function boundsChanges(queue: Queue, form: BoundsForm, changes: QueueChanges, problems: Partial<Record<'maxMessages' | 'maxBytes', string>>): void {
  const messages = boundOf(form.maxMessages, 'maxMessages');
  if (typeof messages === 'string') problems.maxMessages = messages;
  else if (messages !== (queue.max_messages ?? null)) changes.maxMessages = messages;
  const bytes = boundOf(form.maxBytes, 'maxBytes');
  if (typeof bytes === 'string') problems.maxBytes = bytes;
  else if (bytes !== (queue.max_bytes ?? null)) changes.maxBytes = bytes;
  if (form.overflow !== (queue.overflow ?? 'reject_publish')) changes.overflow = form.overflow;
}

/** "1000 messages, 1048576 bytes; then refuse the publish", or "none". */
export function boundsSummary(queue: Queue): string {
  const bounds = [boundText(queue.max_messages) && `${queue.max_messages} messages`, boundText(queue.max_bytes) && `${queue.max_bytes} payload bytes`].filter(
    Boolean,
  );
  return bounds.length === 0
    ? 'none (the queue grows without bound)'
    : `${bounds.join(', ')}; when full: ${OVERFLOW_LABELS[queue.overflow ?? 'reject_publish'].toLowerCase()}`;
}
