import type { Pool } from '../db/pool.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { ReadyEvent, WsMemberEvent, WsReadingEvent } from './channels.js';
import { messageDelayedGroupList, messageDueList } from '../db/queries/messageDue.js';
import { wsPushNotify } from '../db/queries/notification.js';
import { wsConsumerDeleteOrphans, wsConsumerList } from '../db/queries/wsConsumer.js';
import { wsMonitorDeleteOrphans } from '../db/queries/wsMonitor.js';
import { Rotations, type TakeFrom } from './rotations.js';

/** [socket id, message id] */
export type Delivery = [string, string];

export interface DispatcherDeps {
  pool: Pool;
  instanceId: string;
  /** Hands deliveries for sockets of this instance over without a round trip through the database. */
  deliverLocal(queue: string, deliveries: Delivery[]): void;
  log(message: string, error?: unknown): void;
}

/** Deliveries per NOTIFY: 100 × (12-character socket id + uuid) stays well under 8000 bytes. */
const DELIVERIES_PER_PUSH = 100;
/** Bounds on what the dispatcher holds in memory when the database or the load misbehaves. */
const MAX_OUTBOX = 10_000;
const MAX_DELAYED_GROUPS = 100_000;
const MAX_BACKLOG = 10_000;
const PURGE_INTERVAL_MS = 10_000;
const RELOAD_DELAY_MS = 1_000;

/**
 * The one place that decides which consumer socket hears of which message. Exactly one instance
 * runs it at a time (the holder of the dispatcher lock), so one counter per queue serves every
 * instance: the queue's sockets, in the order they connected anywhere, take turns. It learns of
 * sockets and of newly claimable messages from the same NOTIFY stream, in commit order, and sends
 * each choice to the instance that holds the socket (NOTIFY miniqueue_ws_push), or hands it over
 * directly when the socket is its own.
 */
export class Dispatcher implements Service {
  readonly name = 'dispatcher';
  private readonly life = new Lifecycle(this.name);
  private readonly rotations = new Rotations();
  private state: 'idle' | 'loading' | 'active' = 'idle';
  /** Bumped on every (re)load and on resignation; async work of an older generation is void. */
  private generation = 0;
  private readonly tombstones = new Set<string>();
  private backlog: ReadyEvent[] = [];
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private outbox: string[] = [];
  /** The outbox's flush in progress, if any: a stop waits for it. */
  private flushing?: Promise<void>;
  private purgeTimer?: NodeJS.Timeout;

  constructor(private readonly deps: DispatcherDeps) {}

  get active(): boolean {
    return this.state === 'active';
  }

  /** Consumer sockets of a queue in rotation order, across instances (for tests and diagnostics). */
  rotationOf(queue: string): string[] {
    return this.rotations.sockets(queue);
  }

  /** Ready to be activated; it works only while this instance holds the dispatcher lock. */
  start(): Promise<void> {
    return this.life.start();
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      this.reset();
      await this.flushing;
    });
  }

  health() {
    return this.life.health();
  }

  /** Took the lead, or the view may be stale (the notification connection was re-established). */
  async activate(): Promise<void> {
    this.reset();
    if (this.life.stopped) return;
    const generation = this.generation;
    this.state = 'loading';
    this.purgeTimer = this.life.timers.every(PURGE_INTERVAL_MS, () => void this.purgeOnce());
    try {
      await this.deleteOrphans();
      const rows = await wsConsumerList(this.deps.pool);
      if (generation !== this.generation) return;
      // Sockets that left while the list was read are gone, whatever the list says.
      for (const row of rows) if (!this.tombstones.has(row.id)) this.rotations.add(row.id, row.queue_name, row.instance_id);
      this.tombstones.clear();
      this.state = 'active';
      const backlog = this.backlog;
      this.backlog = [];
      for (const event of backlog) this.onReady(event);
      const groups = await messageDelayedGroupList(this.deps.pool, MAX_DELAYED_GROUPS);
      if (generation !== this.generation) return;
      for (const group of groups) this.arm(group.queue, group.available_at, Date.parse(group.available_at) - Date.now());
    } catch (error) {
      if (generation !== this.generation) return;
      this.deps.log('dispatcher could not load the consumer sockets; retrying', error);
      this.life.timers.after(RELOAD_DELAY_MS, () => {
        if (generation === this.generation) void this.activate();
      });
    }
  }

  /** Lost the lead: forget everything, the next dispatcher starts from the database. */
  deactivate(): void {
    this.reset();
  }

  onMember(event: WsMemberEvent): void {
    if (this.state === 'idle') return;
    if (event.op === 'INSERT') {
      if (!this.tombstones.has(event.id)) this.rotations.add(event.id, event.queue, event.instance);
      return;
    }
    this.rotations.remove(event.id);
    if (this.state === 'loading') this.tombstones.add(event.id);
  }

  onReady(event: ReadyEvent): void {
    if (this.state === 'idle') return;
    if (this.state === 'loading') {
      if (this.backlog.length < MAX_BACKLOG) this.backlog.push(event);
      return;
    }
    if (event.delayed) this.arm(event.queue, event.available_at, Date.parse(event.available_at) - Date.now());
    else this.assign(event.queue, event.ids);
  }

  /**
   * A socket's instance says it stopped reading, or reads again. The ids it hands back were chosen
   * for that socket and no socket of its instance could take them: they go to a socket that reads,
   * or to none (never back and forth between stalled sockets). While the view loads, the news is
   * dropped: the instance tells it again when one of its sockets that does not read is chosen.
   */
  onReading(event: WsReadingEvent): void {
    if (this.state !== 'active') return;
    this.rotations.setReading(event.id, event.reading === true);
    if (Array.isArray(event.ids) && event.ids.length > 0) this.assign(event.queue, event.ids, 'readers only');
  }

  private reset(): void {
    this.generation += 1;
    this.state = 'idle';
    this.rotations.clear();
    this.tombstones.clear();
    this.backlog = [];
    for (const timer of this.delayed.values()) this.life.timers.cancel(timer);
    this.delayed.clear();
    this.life.timers.cancel(this.purgeTimer);
  }

  /** Each id to the queue's next socket in turn. */
  private assign(queue: string, ids: string[], from?: TakeFrom): void {
    const turns = this.rotations.take(queue, ids.length, from);
    const byInstance = new Map<string, Delivery[]>();
    turns.forEach(({ socket, instance }, index) => {
      let deliveries = byInstance.get(instance);
      if (!deliveries) byInstance.set(instance, (deliveries = []));
      deliveries.push([socket, ids[index]]);
    });
    for (const [instance, deliveries] of byInstance) {
      if (instance === this.deps.instanceId) this.deps.deliverLocal(queue, deliveries);
      else this.post(instance, queue, deliveries);
    }
  }

  private post(instance: string, queue: string, deliveries: Delivery[]): void {
    for (let start = 0; start < deliveries.length; start += DELIVERIES_PER_PUSH) {
      if (this.outbox.length >= MAX_OUTBOX) {
        this.deps.log(`dispatcher outbox full; ${deliveries.length - start} notifications for ${queue} dropped`);
        break;
      }
      const pairs = deliveries.slice(start, start + DELIVERIES_PER_PUSH);
      this.outbox.push(JSON.stringify({ instance, queue, pairs }));
    }
    // Everything chosen in this turn of the event loop leaves in one statement.
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    while (this.outbox.length > 0) {
      const batch = this.outbox.splice(0, DELIVERIES_PER_PUSH);
      try {
        await wsPushNotify(this.deps.pool, batch);
      } catch (error) {
        this.deps.log(`dispatcher could not reach other instances; ${batch.length} notifications dropped`, error);
      }
    }
    this.flushing = undefined;
  }

  /** A delayed group is looked up when due, so holding it costs one timer, whatever its size. */
  private arm(queue: string, availableAt: string, waitMs: number): void {
    const key = `${queue}\n${availableAt}`;
    if (this.delayed.has(key)) return;
    if (this.delayed.size >= MAX_DELAYED_GROUPS) {
      this.deps.log(`dispatcher holds too many delayed groups; ${queue} at ${availableAt} will not be notified`);
      return;
    }
    const generation = this.generation;
    const timer = this.life.timers.after(Math.max(0, waitMs || 0), () => void this.fire(key, queue, availableAt, generation));
    if (timer) this.delayed.set(key, timer);
  }

  private async fire(key: string, queue: string, availableAt: string, generation: number): Promise<void> {
    this.delayed.delete(key);
    try {
      const due = await messageDueList(this.deps.pool, queue, availableAt);
      if (generation !== this.generation) return;
      if (due.waitMs > 0) this.arm(queue, availableAt, due.waitMs);
      else this.assign(queue, due.ids);
    } catch (error) {
      this.deps.log(`dispatcher could not look up messages due in ${queue}`, error);
    }
  }

  /** Removes the sockets of instances that died without saying so (their rows name a gone session). */
  async purgeOnce(): Promise<void> {
    try {
      await this.deleteOrphans();
    } catch (error) {
      this.deps.log('dispatcher could not remove sockets of stopped instances', error);
    }
  }

  /** The sockets and monitor presence of instances that died without saying so (their rows name a gone session). */
  private async deleteOrphans(): Promise<void> {
    await wsMonitorDeleteOrphans(this.deps.pool);
    await wsConsumerDeleteOrphans(this.deps.pool);
  }
}
