import type { ComponentType } from 'react';
import { HistoryReplay } from '../history-replay/components/HistoryReplay';
import { PushSettings } from '../push/components/PushSettings';

/**
 * Tabs other features add to a queue's page, after Messages and Settings, in this order. A feature
 * adds its own by appending `{ id, label, component }` here; the component gets the queue's name
 * and brings its own heading.
 */
export interface QueuePanel {
  id: string;
  label: string;
  component: ComponentType<{ queue: string }>;
  /** Shown to admins only (a viewer would see an empty tab). */
  adminOnly?: boolean;
}

export const QUEUE_PANELS: QueuePanel[] = [
  { id: 'replay', label: 'Replay', component: HistoryReplay, adminOnly: true },
  { id: 'push', label: 'Push', component: PushSettings },
];
