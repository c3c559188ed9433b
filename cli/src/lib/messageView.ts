import type { Message } from '@miniqueue/sdk';
import { formatTime } from './format.js';
import { dim, inStatusColor } from './style.js';
import { renderPairs } from './table.js';

/** One consumed message for a person: a dim line of facts, then the payload as it is. */
export function renderMessage(message: Message): string {
  const headers = Object.entries(message.headers ?? {}).map(([name, value]) => `${name}=${value}`);
  const facts = [
    message.message_id,
    message.queue,
    `retry ${message.retry_count}`,
    `published ${formatTime(message.published_at)}`,
    ...(headers.length > 0 ? [`headers ${headers.join(' ')}`] : []),
  ];
  return `${dim(facts.join('  '))}\n${message.payload}`;
}

/** One message looked up by id: every fact the broker keeps of it, then the payload as it is. */
export function renderMessageDetails(message: Message): string {
  const headers = Object.entries(message.headers ?? {}).map(([name, value]) => `${name}=${value}`);
  const pairs: Array<[string, string]> = [
    ['id', message.message_id],
    ['status', inStatusColor(message.status, message.status)],
    ['queue', message.queue],
    ['topic', message.topic],
    ['retries', String(message.retry_count)],
    ['published', formatTime(message.published_at)],
    ['available', formatTime(message.available_at)],
    ['consumer', message.consumer_id ?? '-'],
    ['claimed', formatTime(message.unacked_at)],
    ['lease ends', formatTime(message.lease_expires_at)],
    ...(message.priority === null || message.priority === undefined ? [] : [['priority', String(message.priority)] as [string, string]]),
    ...(message.group_key === null || message.group_key === undefined
      ? []
      : [['group key', message.group_key === '' ? '(empty)' : message.group_key] as [string, string]]),
    ...deathOf(message),
    ['headers', headers.length > 0 ? headers.join(' ') : '-'],
  ];
  return `${renderPairs(pairs)}

${message.payload}`;
}

/** When and why a dead message died: its reason code, then the consumer's words or how its retries ran out. */
function deathOf(message: Message): Array<[string, string]> {
  if (message.status !== 'DEAD') return [];
  const why = [message.dead_reason, message.dead_detail].filter(Boolean).join(': ');
  return [
    ['died', formatTime(message.dead_at)],
    ['why', why || '-'],
  ];
}
