import type { Message } from '@miniqueue/sdk';
import { formatTime } from './format.js';
import { dim } from './style.js';

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
