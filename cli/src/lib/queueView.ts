import type { Queue } from '@miniqueue/sdk';
import { formatTime } from './format.js';
import { renderPairs } from './table.js';

/** One queue's settings, each on its own line. */
export function renderQueue(queue: Queue): string {
  const retention = queue.acked_retention_hours === null ? 'broker default (MINIQUEUE_ACKED_RETENTION_HOURS)' : `${queue.acked_retention_hours}h`;
  return renderPairs([
    ['name', queue.name],
    ['topic', queue.topic_name],
    ['ack timeout', `${queue.ack_timeout_seconds}s`],
    ['max retries', String(queue.max_retries)],
    ['acked retention', retention],
    ['filter', queue.filter ? JSON.stringify(queue.filter) : 'none (every message)'],
    ['ordering key', queue.require_ordering_key ? 'required' : 'optional'],
    ['created', formatTime(queue.created_at)],
  ]);
}
