/**
 * What each notification channel carries, in one place: the bus parses them, the relays write
 * them, the listeners read them. Payloads are JSON except `miniqueue_monitor_presence`, which names
 * an instance. Who sends and who hears each one is in README.md beside this file.
 */

/** A queue's news for other instances: messages claimable now, and the earliest delayed time. */
export type QueueNews = [queue: string, count: number, at: string | null];
/** `miniqueue_wakeup`: another instance committed messages that are claimable now or later. */
export interface WakeupNotification {
  instance: string;
  queues: QueueNews[];
}

/** Messages of one queue that made one transition, as the monitor feed sums them up. */
export interface MonitorGroup {
  event: string;
  queue: string;
  count: number;
  /** Up to MAX_EVENTS_PER_GROUP of them; more than that, or fewer than `count`, is shown as a summary. */
  ids: string[];
}

/** `miniqueue_monitor`: another instance's transitions, gathered for the dashboards' live feed. */
export interface MonitorNotification {
  instance: string;
  groups: MonitorGroup[];
}

/** A topic or queue was created or deleted (trigger in migration 0001). */
export interface TopologyEvent {
  kind: 'topic' | 'queue';
  op: 'INSERT' | 'DELETE';
  name: string;
}

/** Messages that just became PENDING in a queue with consumer sockets (see readyRelay.ts). */
export interface ReadyEvent {
  queue: string;
  /** As PostgreSQL wrote it (microseconds), so it can be sent back to find the same rows. */
  available_at: string;
  /** Available later than the transition: `ids` is empty, look them up when due. */
  delayed: boolean;
  ids: string[];
}
/** A consumer socket joined or left, on any instance. */
export interface WsMemberEvent {
  op: 'INSERT' | 'DELETE';
  id: string;
  queue: string;
  instance: string;
}
/** The dispatcher's choice: these sockets of `instance` get these message ids. */
export interface WsPushEvent {
  instance: string;
  queue: string;
  /** [socket id, message id] */
  pairs: [string, string][];
}
/**
 * A consumer socket stopped reading (`reading: false`, with the message ids chosen for it that no
 * socket of its instance could take, for the dispatcher to choose again), or reads again.
 */
export interface WsReadingEvent {
  id: string;
  queue: string;
  reading: boolean;
  ids: string[];
}

/**
 * A credential changed (triggers in migrations 0001, 0002, 0011): a client's key, revocation or
 * deletion (`change: 'credential'`), only its scopes (`'scopes'`), or a session ended (no `change`).
 */
export interface AuthEvent {
  kind: 'client' | 'session';
  id: string;
  change?: 'credential' | 'scopes';
}

export interface BusEvents {
  /** Another instance committed messages that are claimable now or later (debounced). */
  wakeup: [WakeupNotification];
  /** Another instance's transitions, gathered for the dashboards' live feed. */
  monitor: [MonitorNotification];
  /** A monitor socket opened on some instance. */
  monitorPresence: [string];
  topology: [TopologyEvent];
  auth: [unknown];
  ready: [ReadyEvent];
  wsMember: [WsMemberEvent];
  wsPush: [WsPushEvent];
  wsReading: [WsReadingEvent];
  /** The LISTEN connection was (re)established: anything may have been missed before. */
  reset: [];
}

/** Channel → the bus event it becomes. */
export const CHANNELS: Record<string, keyof BusEvents> = {
  miniqueue_wakeup: 'wakeup',
  miniqueue_monitor: 'monitor',
  miniqueue_monitor_presence: 'monitorPresence',
  miniqueue_topology: 'topology',
  miniqueue_auth: 'auth',
  miniqueue_ready: 'ready',
  miniqueue_ws_members: 'wsMember',
  miniqueue_ws_push: 'wsPush',
  miniqueue_ws_reading: 'wsReading',
};
