import { EventEmitter } from 'node:events';
import pg from 'pg';
import { RECONNECT_BACKOFF } from '../lifecycle/backoff.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { MonitorNotification } from './monitorRelay.js';
import type { WakeupNotification } from './wakeupBroadcast.js';

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
  /** The LISTEN connection was (re)established: anything may have been missed before. */
  reset: [];
}

const CHANNELS: Record<string, keyof BusEvents> = {
  miniqueue_wakeup: 'wakeup',
  miniqueue_monitor: 'monitor',
  miniqueue_monitor_presence: 'monitorPresence',
  miniqueue_topology: 'topology',
  miniqueue_auth: 'auth',
  miniqueue_ready: 'ready',
  miniqueue_ws_members: 'wsMember',
  miniqueue_ws_push: 'wsPush',
};

/**
 * One dedicated connection LISTENing for what every instance commits. Notifications arrive only
 * after the writing transaction commits, from whichever instance wrote. When the connection
 * drops it reconnects, backing off to under a second (RECONNECT_BACKOFF), and emits `reset`, since
 * notifications sent meanwhile are lost.
 */
export class NotificationBus extends EventEmitter<BusEvents> implements Service {
  readonly name = 'notification-bus';
  private readonly life = new Lifecycle(this.name);
  private client?: pg.Client;
  /** A reconnect in progress: a stop waits for it, so its connection is closed, not left open. */
  private reconnecting?: Promise<void>;

  constructor(
    private readonly connectionString: string,
    private readonly log: (message: string, error?: unknown) => void = () => undefined,
  ) {
    super();
    this.setMaxListeners(0);
  }

  start(): Promise<void> {
    return this.life.start(() => this.connect());
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      await this.reconnecting?.catch(() => undefined);
      const client = this.client;
      this.client = undefined;
      await client?.end().catch(() => undefined);
    });
  }

  /**
   * This instance's own credential change, told to its listeners as soon as it committed, before
   * the answer: its notification comes back too, later, and is handled again (to no effect).
   */
  changedHere(event: AuthEvent): void {
    this.emit('auth', event);
  }

  health() {
    return this.life.health();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'miniqueue-listen' });
    client.on('notification', (message) => this.dispatch(message.channel, message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(Object.keys(CHANNELS).map((channel) => `LISTEN ${channel}`).join('; '));
      // A reconnect that finished after the stop began: its connection is not wanted.
      if (this.life.stopped) throw new Error('the notification bus has stopped');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.life.report(undefined);
    this.emit('reset');
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.life.stopped || this.client !== client) return;
    this.client = undefined;
    this.life.report('no LISTEN connection');
    this.log('notification connection lost; reconnecting', error);
    const reconnect = () => (this.reconnecting = this.connect().finally(() => (this.reconnecting = undefined)));
    this.life.retry(RECONNECT_BACKOFF, reconnect, (failure) => this.log('notification reconnect failed', failure));
  }

  private dispatch(channel: string, payload: string | undefined): void {
    const name = CHANNELS[channel];
    if (!name || payload === undefined) return;
    try {
      // Every channel carries JSON except the presence one, which names an instance.
      this.emit(name as 'auth', name === 'monitorPresence' ? payload : JSON.parse(payload));
    } catch (error) {
      this.log(`bad notification on ${channel}`, error);
    }
  }
}
