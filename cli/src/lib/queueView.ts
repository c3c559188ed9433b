import type { PushEndpoint, Queue } from '@miniqueue/sdk';
import { pushDeliveryPairs } from './pushView.js';
import { formatTime } from './format.js';
import { renderPairs } from './table.js';
import { describeBounds } from './boundFlags.js';
import { describeExpiry } from './expiryFlags.js';
import { describeAttention } from './attentionFlags.js';

/** One queue's settings, each on its own line; with its push endpoint's URL and deliveries when it has one. */
export function renderQueue(queue: Queue, push?: PushEndpoint | null): string {
  const expiry = describeExpiry(queue);
  const retention = queue.acked_retention_hours === null ? 'broker default (MINIQUEUE_ACKED_RETENTION_HOURS)' : `${queue.acked_retention_hours}h`;
  return renderPairs([
    ['name', queue.name],
    ['topic', queue.topic_name],
    ['ack timeout', `${queue.ack_timeout_seconds}s`],
    ['max retries', String(queue.max_retries)],
    ['acked retention', retention],
    ['filter', queue.filter ? JSON.stringify(queue.filter) : 'none (every message)'],
    ['ordering key', queue.require_ordering_key ? 'required' : 'optional'],
    ['consumers', queue.single_active_consumer ? 'one at a time (single active consumer)' : 'all at once'],
    ['priorities', queue.max_priority === null ? 'none (oldest first)' : `highest first, 0-${queue.max_priority}`],
    ['fairness', describeFairness(queue)],
    ['delivery rate', queue.max_deliveries_per_second ? `at most ${queue.max_deliveries_per_second}/s` : 'no limit'],
    ['created', formatTime(queue.created_at)],
    ['bounds', describeBounds(queue)],
    ['message ttl', expiry.ttl],
    ['dead letters', expiry.deadLetters],
    ['needs attention', describeAttention(queue)],
    ...(push === undefined ? [] : pushPairs(push)),
  ]);
}

function pushPairs(push: PushEndpoint | null): [string, string][] {
  if (push === null) return [['push', 'none (consumers pull)']];
  return [['push', push.url], ...pushDeliveryPairs(push).map(([label, value]): [string, string] => [`push ${label}`, value])];
}

/** "by group key, in turn, at most 2 in flight per key", or "none (oldest first)". */
function describeFairness(queue: Queue): string {
  if (queue.fairness !== 'by_key') return 'none (oldest first)';
  return queue.max_in_flight_per_key === null ? 'by group key, in turn' : `by group key, in turn, at most ${queue.max_in_flight_per_key} in flight per key`;
}
