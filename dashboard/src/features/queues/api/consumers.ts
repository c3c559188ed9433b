import type { MiniQueue, QueueConsumers } from '@miniqueue/sdk';

export const loadConsumers = (mq: MiniQueue, queue: string, signal: AbortSignal): Promise<QueueConsumers> => mq.dashboard.consumers(queue, { signal });

/** Seconds since a consumer was last seen, by the reader's clock; null when it only holds messages. */
export const secondsSince = (at: Date | null, now = Date.now()): number | null => (at === null ? null : Math.max(0, (now - at.getTime()) / 1000));
