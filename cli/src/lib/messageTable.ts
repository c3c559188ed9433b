import type { Message } from '@miniqueue/sdk';
import { formatTime, oneLine } from './format.js';
import { inStatusColor } from './style.js';
import { FULL_WIDTH, renderTable, type Column, type Layout } from './table.js';

const columns = {
  id: { header: 'ID', value: (m) => m.message_id },
  queue: { header: 'QUEUE', value: (m) => m.queue },
  status: { header: 'STATUS', value: (m) => m.status, style: (cell, m) => inStatusColor(m.status, cell) },
  retries: { header: 'RETRIES', value: (m) => m.retry_count, align: 'right' },
  published: { header: 'PUBLISHED', value: (m) => formatTime(m.published_at) },
  consumer: { header: 'CONSUMER', value: (m) => m.consumer_id ?? '-', shrink: true },
  payload: { header: 'PAYLOAD', value: (m) => oneLine(m.payload, Infinity), shrink: true },
  died: { header: 'DIED', value: (m) => (m.dead_at ? formatTime(m.dead_at) : '-') },
  why: { header: 'WHY', value: (m) => oneLine(m.dead_detail ?? m.dead_reason ?? '-', Infinity), shrink: true },
} satisfies Record<string, Column<Message>>;

/** Fitting a narrow terminal leaves out the publish time, then the consumer. */
export function renderMessages(messages: Message[], layout: Layout = FULL_WIDTH): string {
  const { id, status, retries, published, consumer, payload } = columns;
  return renderTable(messages, [id, status, retries, { ...published, drop: 1 }, { ...consumer, drop: 2 }, payload], layout);
}

/**
 * Why a message died is what a dead-letter view is for: cutting keeps this much of it ("retries
 * exhausted after 3 deliv…"), leaving other columns out first, where the plain floor of 12 would
 * keep "retries exh…". At 120 columns the time it died still fits beside it and a queue name of 11.
 */
const WHY_MIN_WIDTH = 32;

/**
 * The dead-letter view: where each message died, who held it last, how often it was retried.
 * Fitting a narrow terminal leaves out the publish time, the last consumer, the retries, then when it died.
 */
export function renderDeadLetters(messages: Message[], layout: Layout = FULL_WIDTH): string {
  const { id, queue, retries, published, died, why, payload } = columns;
  const lastConsumer = { ...columns.consumer, header: 'LAST CONSUMER', drop: 3 };
  return renderTable(
    messages,
    [id, queue, { ...retries, drop: 2 }, lastConsumer, { ...published, drop: 4 }, { ...died, drop: 1 }, { ...why, minWidth: WHY_MIN_WIDTH }, payload],
    layout,
  );
}
