import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { newClient } from '../db/targetedClient.js';
import { RECONNECT_BACKOFF } from '../lifecycle/backoff.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import { CHANNELS, type AuthEvent, type BusEvents } from './channels.js';

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
    const client = newClient({ connectionString: this.connectionString, application_name: 'miniqueue-listen' });
    client.on('notification', (message) => this.dispatch(message.channel, message.payload));
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(
        Object.keys(CHANNELS)
          .map((channel) => `LISTEN ${channel}`)
          .join('; '),
      );
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
