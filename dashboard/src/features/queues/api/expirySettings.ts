import { LIMITS, type OnExpiry, type Queue, type QueueChanges } from '@miniqueue/sdk';
import { optionalWholeNumber } from '../../../lib/wholeNumber';

/** What an expired message becomes, in words; the values are the contract's. */
export const ON_EXPIRY_LABELS: Record<OnExpiry, string> = {
  dead_letter: 'Dead-letter it (TTL_EXPIRED)',
  drop: 'Delete it',
};

export interface ExpiryForm {
  messageTtlSeconds: string;
  onExpiry: OnExpiry;
  deadLetterTopic: string;
  deadLetterKeep: boolean;
}

export const expiryFormOf = (queue: Queue): ExpiryForm => ({
  messageTtlSeconds: queue.message_ttl_seconds == null ? '' : String(queue.message_ttl_seconds),
  onExpiry: queue.on_expiry ?? 'dead_letter',
  deadLetterTopic: queue.dead_letter_topic ?? '',
  deadLetterKeep: queue.dead_letter_keep ?? false,
});

export const expiryEdited = (queue: Queue, form: ExpiryForm): boolean => {
  const initial = expiryFormOf(queue);
  return (
    form.messageTtlSeconds.trim() !== initial.messageTtlSeconds ||
    form.onExpiry !== initial.onExpiry ||
    form.deadLetterTopic.trim() !== initial.deadLetterTopic ||
    form.deadLetterKeep !== initial.deadLetterKeep
  );
};

/** An empty TTL is null (never); otherwise whole seconds from 1 to 14 days. */
const ttlOf = (text: string): number | null | string =>
  optionalWholeNumber(text, LIMITS.messageTtlSeconds, {
    notWhole: 'Enter a whole number of seconds, or leave empty for no expiry.',
    outOfRange: `Between ${LIMITS.messageTtlSeconds.min} and ${LIMITS.messageTtlSeconds.max} seconds, or empty for no expiry.`,
  });

/** Adds to `changes` the expiry and dead-letter settings that differ from the queue's; a bad one goes to `problems`. */
export function expiryChanges(
  queue: Queue,
  form: ExpiryForm,
  changes: QueueChanges,
  problems: Partial<Record<'messageTtlSeconds' | 'deadLetterTopic', string>>,
): void {
  const ttl = ttlOf(form.messageTtlSeconds);
  if (typeof ttl === 'string') problems.messageTtlSeconds = ttl;
  else if (ttl !== (queue.message_ttl_seconds ?? null)) changes.messageTtlSeconds = ttl;
  if (form.onExpiry !== (queue.on_expiry ?? 'dead_letter')) changes.onExpiry = form.onExpiry;
  const topic = form.deadLetterTopic.trim().toLowerCase() || null;
  if (topic !== null && topic === queue.topic_name) problems.deadLetterTopic = "Not the queue's own topic: its dead letters would come back to it.";
  else if (topic !== (queue.dead_letter_topic ?? null)) changes.deadLetterTopic = topic;
  if (form.deadLetterKeep !== (queue.dead_letter_keep ?? false)) changes.deadLetterKeep = form.deadLetterKeep;
}

/** "60 s, then dead-letter it (TTL_EXPIRED)", or "none". */
export function expirySummary(queue: Queue): string {
  return queue.message_ttl_seconds == null
    ? 'none (messages wait until delivered)'
    : `${queue.message_ttl_seconds} s after publish; then: ${ON_EXPIRY_LABELS[queue.on_expiry ?? 'dead_letter'].toLowerCase()}`;
}

/** "published to orders.dead (and kept here)", or "kept here". */
export function deadLettersSummary(queue: Queue): string {
  if (!queue.dead_letter_topic) return 'kept in this queue’s dead letters';
  return `published to topic ${queue.dead_letter_topic}${queue.dead_letter_keep ? ', and kept in this queue’s dead letters' : ''}`;
}
