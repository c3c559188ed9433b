import type { ComponentType } from 'react';
import { OverviewPage } from '../features/overview/components/OverviewPage';
import { QueuesPage } from '../features/queues/components/QueuesPage';
import { DeadLettersPage } from '../features/deadLetters/components/DeadLettersPage';
import { LivePage } from '../features/live/components/LivePage';
import { TopicsPage } from '../features/topics/components/TopicsPage';
import { PublishPage } from '../features/publish/components/PublishPage';
import { ClientsPage } from '../features/clients/components/ClientsPage';

export interface Route {
  path: string;
  label: string;
  page: ComponentType;
  /** Pages that only change things; viewers do not see them at all. */
  adminOnly?: boolean;
  section: 'Operations' | 'Management';
}

export const ROUTES: Route[] = [
  { path: '/', label: 'Overview', page: OverviewPage, section: 'Operations' },
  { path: '/queues', label: 'Queues', page: QueuesPage, section: 'Operations' },
  { path: '/dead-letters', label: 'Dead letters', page: DeadLettersPage, section: 'Operations' },
  { path: '/live', label: 'Live activity', page: LivePage, section: 'Operations' },
  { path: '/topics', label: 'Topics & queues', page: TopicsPage, section: 'Management' },
  { path: '/publish', label: 'Publish', page: PublishPage, adminOnly: true, section: 'Management' },
  { path: '/clients', label: 'Clients', page: ClientsPage, adminOnly: true, section: 'Management' },
];

export const routesFor = (admin: boolean): Route[] => ROUTES.filter((route) => admin || !route.adminOnly);
