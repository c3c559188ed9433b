import type { ComponentType } from 'react';
import { OverviewPage } from '../features/overview/components/OverviewPage';
import { QueuesPage } from '../features/queues/components/QueuesPage';
import { QueuePage } from '../features/queues/components/queue/QueuePage';
import { DeadLettersPage } from '../features/deadLetters/components/DeadLettersPage';
import { LivePage } from '../features/live/components/LivePage';
import { TopicsPage } from '../features/topics/components/TopicsPage';
import { PublishPage } from '../features/publish/components/PublishPage';
import { ClientsPage } from '../features/clients/components/ClientsPage';

export interface Route {
  /** The address; a `:name` segment matches any one segment (the page reads it from the path). */
  path: string;
  label: string;
  page: ComponentType;
  /** Pages that only change things; viewers do not see them at all. */
  adminOnly?: boolean;
  section: 'Operations' | 'Management';
  /** Reached from another page, not from the menu (one queue's page). */
  inMenu?: false;
}

export const ROUTES: Route[] = [
  { path: '/', label: 'Overview', page: OverviewPage, section: 'Operations' },
  { path: '/queues', label: 'Queues', page: QueuesPage, section: 'Operations' },
  { path: '/queues/:queue', label: 'Queue', page: QueuePage, section: 'Operations', inMenu: false },
  { path: '/dead-letters', label: 'Dead letters', page: DeadLettersPage, section: 'Operations' },
  { path: '/live', label: 'Live activity', page: LivePage, section: 'Operations' },
  { path: '/topics', label: 'Topics & queues', page: TopicsPage, section: 'Management' },
  { path: '/publish', label: 'Publish', page: PublishPage, adminOnly: true, section: 'Management' },
  { path: '/clients', label: 'Clients', page: ClientsPage, adminOnly: true, section: 'Management' },
];

export const routesFor = (admin: boolean): Route[] => ROUTES.filter((route) => admin || !route.adminOnly);

/** Whether a path is a route's address, segment by segment. */
export function matches(route: Route, pathname: string): boolean {
  const want = route.path.split('/');
  const have = pathname.split('/');
  return want.length === have.length && want.every((segment, index) => (segment.startsWith(':') ? have[index] !== '' : segment === have[index]));
}

/** The menu entry a path belongs to: itself, or the page it was reached from (/queues/x → Queues). */
export function menuEntryOf(routes: Route[], pathname: string): Route | undefined {
  return routes.find((route) => route.inMenu !== false && (route.path === pathname || (route.path !== '/' && pathname.startsWith(`${route.path}/`))));
}
