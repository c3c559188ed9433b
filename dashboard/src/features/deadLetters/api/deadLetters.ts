import type { MessagePage, MiniQueue } from '@miniqueue/sdk';

export const DLQ_PAGE_SIZE = 20;

export const loadDeadLetters = (mq: MiniQueue, options: { queue?: string; cursor?: string; signal: AbortSignal }): Promise<MessagePage> =>
  mq.dlq.list({ queue: options.queue, cursor: options.cursor, limit: DLQ_PAGE_SIZE, signal: options.signal });

export const replayOne = (mq: MiniQueue, messageId: string) => mq.dlq.replay(messageId);

export const replayQueue = (mq: MiniQueue, queue: string) => mq.dlq.replayAll(queue);
