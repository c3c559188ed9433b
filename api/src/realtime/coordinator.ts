import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { newClient } from '../db/targetedClient.js';
import { advisoryLockTryTake } from '../db/queries/advisoryLock.js';
import { wsConsumerDelete, wsConsumerDeleteInstance, wsConsumerInsert, wsConsumerInsertMany } from '../db/queries/wsConsumer.js';
import { wsMonitorDelete, wsMonitorUpsert } from '../db/queries/wsMonitor.js';
import { RECONNECT_BACKOFF } from '../lifecycle/backoff.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';

export interface CoordinatorEvents {
  /** This instance became (true) or stopped being (false) the dispatcher. */
  leadership: [boolean];
}

/**
 * This instance's own PostgreSQL session for consumer sockets. It registers the sockets held here
 * (rows that name this session, so others can tell once it is gone) and competes for the
 * dispatcher's advisory lock, which belongs to the session: when the leader dies or loses its
 * connection, the lock is free and another instance takes it at its next election round.
 * After a lost connection it reconnects and registers every socket it still holds again.
 */
export class Coordinator extends EventEmitter<CoordinatorEvents> implements Service {
  readonly name = 'realtime-coordinator';
  private readonly life = new Lifecycle(this.name);
  private client?: pg.Client;
  private connecting?: Promise<pg.Client>;
  /** socket id → queue: what this instance holds, whatever the database knows right now. */
  private readonly sockets = new Map<string, string>();
  /** Monitor sockets held or being admitted here; presence is recorded while it is above zero. */
  private monitors = 0;
  /** Presence changes, in order: a release must never overtake the acquire before it. */
  private presence: Promise<void> = Promise.resolve();
  private leading = false;
  private electing = false;

  constructor(
    private readonly clientConfig: pg.ClientConfig,
    readonly instanceId: string,
    private readonly log: (message: string, error?: unknown) => void,
    private readonly electionIntervalMs = 1_000,
  ) {
    super();
  }

  get isLeader(): boolean {
    return this.leading;
  }

  /** Connects in the background: sockets wait for the connection, elections begin once it is there. */
  start(): Promise<void> {
    return this.life.start(() => {
      this.connect().catch((error) => {
        this.log('realtime coordination connection failed; retrying', error);
        this.reconnect(1);
      });
      this.life.timers.every(this.electionIntervalMs, () => void this.elect());
    });
  }

  health() {
    return this.life.health();
  }

  /** Puts a socket into the rotation of its queue; rejects when the queue does not exist. */
  async register(id: string, queue: string): Promise<void> {
    this.sockets.set(id, queue);
    try {
      const client = await this.connect();
      await wsConsumerInsert(client, this.instanceId, { id, queue });
    } catch (error) {
      this.sockets.delete(id);
      throw error;
    }
  }

  /** Takes a socket out of the rotation. Without a connection the row goes with the old session. */
  async unregister(id: string): Promise<void> {
    if (!this.sockets.delete(id) || !this.client) return;
    await wsConsumerDelete(this.client, id).catch((error) => this.log('consumer socket unregister failed', error));
  }

  /** A monitor socket is being admitted: from now on the other instances send their monitor events here too. */
  acquireMonitor(): Promise<void> {
    this.monitors += 1;
    return this.monitors === 1 ? this.syncPresence() : this.presence;
  }

  releaseMonitor(): void {
    this.monitors = Math.max(0, this.monitors - 1);
    if (this.monitors === 0) void this.syncPresence();
  }

  private syncPresence(): Promise<void> {
    const next = this.presence.then(async () => {
      const client = await this.connect();
      if (this.monitors > 0) await wsMonitorUpsert(client, this.instanceId);
      else await wsMonitorDelete(client, this.instanceId);
    });
    this.presence = next.catch((error) => this.log('monitor presence update failed', error));
    return next;
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      await this.connecting?.catch(() => undefined);
      const client = this.client;
      this.client = undefined;
      this.resign();
      if (!client) return;
      await wsConsumerDeleteInstance(client, this.instanceId).catch(() => undefined);
      await wsMonitorDelete(client, this.instanceId).catch(() => undefined);
      await client.end().catch(() => undefined);
    });
  }

  private connect(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    if (this.life.stopped) return Promise.reject(new Error('realtime coordination has stopped'));
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const client = newClient(this.clientConfig);
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    await client.connect();
    try {
      if (this.life.stopped) throw new Error('realtime coordination has stopped');
      // Rows of this instance's previous session would otherwise linger until the next purge.
      await wsConsumerDeleteInstance(client, this.instanceId);
      await wsConsumerInsertMany(
        client,
        this.instanceId,
        [...this.sockets].map(([id, queue]) => ({ id, queue })),
      );
      if (this.monitors > 0) await wsMonitorUpsert(client, this.instanceId);
      this.client = client;
      this.life.report(undefined);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    void this.elect();
    return client;
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.resign();
    if (this.life.stopped) return;
    this.life.report('no coordination connection');
    this.log('realtime coordination connection lost; reconnecting', error);
    this.reconnect(0);
  }

  private reconnect(attempt: number): void {
    this.life.retry(
      RECONNECT_BACKOFF,
      () => this.connect(),
      (error) => this.log('realtime coordination reconnect failed', error),
      attempt,
    );
  }

  private async elect(): Promise<void> {
    const client = this.client;
    if (!client || this.leading || this.electing || this.life.stopped) return;
    this.electing = true;
    try {
      const won = await advisoryLockTryTake(client, 'dispatcher');
      // Won on a session that has since gone: the lock went with it.
      if (won && this.client === client && !this.life.stopped) {
        this.leading = true;
        this.emit('leadership', true);
      }
    } catch {
      // A failed query means a lost connection, which lost() handles.
    } finally {
      this.electing = false;
    }
  }

  private resign(): void {
    if (!this.leading) return;
    this.leading = false;
    this.emit('leadership', false);
  }
}
