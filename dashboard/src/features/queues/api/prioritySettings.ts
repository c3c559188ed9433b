import type { Queue } from '@miniqueue/sdk';

/** A queue's priorities in words: fixed when it was created, so the settings form only shows them. */
export const prioritiesText = (queue: Pick<Queue, 'max_priority'>): string =>
  queue.max_priority === null ? 'none (oldest first)' : `highest first, 0–${queue.max_priority} (fixed when the queue was created)`;
