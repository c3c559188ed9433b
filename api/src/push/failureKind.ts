import type { PostOutcome } from './deliver.js';

/** How a delivery ended: what the endpoint answered, or why there was no answer. */
export type DeliveryOutcome = PostOutcome | { failure: 'refused' };

/**
 * The reasons a push can fail, a small fixed set: the label of `miniqueue_push_failures_total`
 * and of the log line (the full reason, with the status or the error code, is the nack reason).
 */
export const PUSH_FAILURE_KINDS = ['timeout', 'connection', 'http_3xx', 'http_4xx', 'http_5xx', 'http_other', 'unsendable', 'refused_target'] as const;
export type PushFailureKind = (typeof PUSH_FAILURE_KINDS)[number];

export const succeeded = (outcome: DeliveryOutcome): boolean => 'status' in outcome && outcome.status >= 200 && outcome.status < 300;

/** The kind of a failed delivery (not of a 2xx). */
export function failureKindOf(outcome: DeliveryOutcome): PushFailureKind {
  if ('status' in outcome) {
    const hundreds = Math.floor(outcome.status / 100);
    return hundreds === 3 ? 'http_3xx' : hundreds === 4 ? 'http_4xx' : hundreds === 5 ? 'http_5xx' : 'http_other';
  }
  if (outcome.failure === 'refused') return 'refused_target';
  return outcome.failure;
}

/** What a dead letter of a push queue says about its last delivery: the endpoint's answer, or why there was none. */
export function pushFailureReason(outcome: DeliveryOutcome): string {
  if ('status' in outcome) return `push endpoint answered ${outcome.status}`;
  if (outcome.failure === 'refused') return 'push target refused (address not allowed)';
  if (outcome.failure === 'unsendable') return `push request could not be made (${outcome.cause})`;
  if (outcome.failure === 'connection') return `push delivery failed (connection: ${outcome.cause})`;
  return `push delivery failed (${outcome.failure})`;
}
