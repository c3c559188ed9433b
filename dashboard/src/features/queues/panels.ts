import type { ComponentType } from 'react';
import { HistoryReplay } from '../history-replay/components/HistoryReplay';
import { PushSettings } from '../push/components/PushSettings';

/**
 * Extra sections of a queue's page, shown in this order below its messages, each in a white box.
 * A feature adds its own by appending `{ id, component }` here; the component gets the queue's
 * name and brings its own heading.
 */
export interface QueuePanel {
  id: string;
  component: ComponentType<{ queue: string }>;
  /** Shown to admins only (a viewer would see an empty box). */
  adminOnly?: boolean;
}

export const QUEUE_PANELS: QueuePanel[] = [
  { id: 'history-replay', component: HistoryReplay, adminOnly: true },
  { id: 'push', component: PushSettings },
];
