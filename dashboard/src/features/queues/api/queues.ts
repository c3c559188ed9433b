import type { MessagePage, MessageStatus, MiniQueue, QueueStats } from '@miniqueue/sdk';

export const loadQueueStats = (mq: MiniQueue, signal: AbortSignal): Promise<QueueStats[]> => mq.dashboard.queues({ signal });

export const PAGE_SIZE = 20;

export const loadMessages = (mq: MiniQueue, queue: string, options: { status?: MessageStatus; cursor?: string; signal: AbortSignal }): Promise<MessagePage> =>
  mq.queues.messages(queue, { status: options.status, cursor: options.cursor, limit: PAGE_SIZE, signal: options.signal });

export const purgeQueue = (mq: MiniQueue, queue: string) => mq.queues.purge(queue);
