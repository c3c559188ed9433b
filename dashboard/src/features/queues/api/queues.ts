import type { Message, MessagePage, MessageStatus, MiniQueue, QueueStats } from '@miniqueue/sdk';
import { formatCount } from '../../../lib/format';

export const loadQueueStats = (mq: MiniQueue, signal: AbortSignal): Promise<QueueStats[]> => mq.dashboard.queues({ signal });

export const PAGE_SIZE = 20;

export type MessageOrder = 'asc' | 'desc';

export interface MessageQuery {
  status?: MessageStatus;
  order: MessageOrder;
  header?: { name: string; value: string };
}

export const loadMessages = (mq: MiniQueue, queue: string, query: MessageQuery, options: { cursor?: string; signal: AbortSignal }): Promise<MessagePage> =>
  mq.queues.messages(queue, { ...query, cursor: options.cursor, limit: PAGE_SIZE, signal: options.signal });

export const purgeQueue = (mq: MiniQueue, queue: string) => mq.queues.purge(queue);

export const findMessage = (mq: MiniQueue, messageId: string): Promise<Message> => mq.getMessage(messageId);

/** How many messages match, as the broker counted them: exact, or "more than" its limit. Null with a header filter. */
export function describeTotal(page: Pick<MessagePage, 'total' | 'total_exact'>, status?: string): string | null {
  if (page.total === null) return null;
  const noun = `${status ? `${status} ` : ''}${page.total === 1 ? 'message' : 'messages'}`;
  return page.total_exact ? `${formatCount(page.total)} ${noun}` : `more than ${formatCount(page.total)} ${noun}`;
}

/** Pages of PAGE_SIZE the total makes, when it is exact. */
export const pageCount = (page: Pick<MessagePage, 'total' | 'total_exact'>): number | undefined =>
  page.total !== null && page.total_exact ? Math.max(1, Math.ceil(page.total / PAGE_SIZE)) : undefined;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A pasted id as the broker takes it, or null when it is not one (checked before asking). */
export const messageIdOf = (text: string): string | null => (UUID.test(text.trim()) ? text.trim().toLowerCase() : null);
