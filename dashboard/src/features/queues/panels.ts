import type { ComponentType } from 'react';
import type { Queue } from '@miniqueue/sdk';

/**
 * Extra sections of a queue's page, shown in this order below its messages. A feature adds its
 * own by appending here: `{ id, title, component }`; the component gets the queue as loaded.
 */
export interface QueuePanel {
  id: string;
  title: string;
  component: ComponentType<{ queue: Queue }>;
}

export const QUEUE_PANELS: QueuePanel[] = [];
