import type { ComponentType } from 'react';

/**
 * Extra sections of a queue's page, shown in this order below its messages, each in a white box.
 * A feature adds its own by appending `{ id, component }` here; the component gets the queue's
 * name and brings its own heading.
 */
export interface QueuePanel {
  id: string;
  component: ComponentType<{ queue: string }>;
}

export const QUEUE_PANELS: QueuePanel[] = [];
