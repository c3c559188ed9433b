import type { Message } from '@miniqueue/sdk';
import { formatTime, oneLine } from './format.js';
import { inStatusColor } from './style.js';
import { renderTable, type Column } from './table.js';

const columns = {
  id: { header: 'ID', value: (m) => m.message_id },
  queue: { header: 'QUEUE', value: (m) => m.queue },
  status: { header: 'STATUS', value: (m) => m.status, style: (cell, m) => inStatusColor(m.status, cell) },
  retries: { header: 'RETRIES', value: (m) => m.retry_count, align: 'right' },
  published: { header: 'PUBLISHED', value: (m) => formatTime(m.published_at) },
  consumer: { header: 'CONSUMER', value: (m) => m.consumer_id ?? '-' },
  payload: { header: 'PAYLOAD', value: (m) => oneLine(m.payload) },
  died: { header: 'DIED', value: (m) => (m.dead_at ? formatTime(m.dead_at) : '-') },
  why: { header: 'WHY', value: (m) => oneLine(m.dead_detail ?? m.dead_reason ?? '-') },
} satisfies Record<string, Column<Message>>;

export function renderMessages(messages: Message[]): string {
  const { id, status, retries, published, consumer, payload } = columns;
  return renderTable(messages, [id, status, retries, published, consumer, payload]);
}

/** The dead-letter view: where each message died, who held it last, how often it was retried. */
export function renderDeadLetters(messages: Message[]): string {
  const { id, queue, retries, published, died, why, payload } = columns;
  return renderTable(messages, [id, queue, retries, { ...columns.consumer, header: 'LAST CONSUMER' }, published, died, why, payload]);
}
