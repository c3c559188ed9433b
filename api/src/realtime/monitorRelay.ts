import type { Pool } from '../db/pool.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { Transition } from '../broker/changes.js';
import type { MonitorGroup, MonitorNotification } from './channels.js';
import type { MonitorEvent } from '@miniqueue/sdk';
import { MAX_EVENTS_PER_GROUP, monitorEventsOf } from './monitorEvents.js';
import { chunkPayloads, type NotificationSender } from './notificationSender.js';
import { wsMonitorExistsElsewhere } from '../db/queries/wsMonitor.js';

export const MONITOR_CHANNEL = 'miniqueue_monitor';

/** How often gathered transitions go out; also the most a dashboard's view lags behind. */
const FLUSH_INTERVAL_MS = 100;
/** How long the answer to "does another instance have a monitor socket?" is trusted. */
const WATCHERS_CHECK_MS = 1_000;

/**
 * The live feed's source. Transitions are gathered per (event, queue) for FLUSH_INTERVAL_MS, with
 * counts and at most MAX_EVENTS_PER_GROUP ids each, then shown to this instance's dashboards and,
 * only while some other instance holds a monitor socket, sent to the others in one NOTIFY. So a
 * watched broker sends ten notifications a second at most, however busy it is, and an unwatched one
 * none: an open dashboard costs next to nothing.
 */
export class MonitorRelay implements Service {
  readonly name = 'monitor-relay';
  private readonly life = new Lifecycle(this.name);
  private groups = new Map<string, MonitorGroup>();
  private timer?: NodeJS.Timeout;
  /** A flush in progress: a stop waits for it, so it asks nothing of a pool that has ended. */
  private flushing?: Promise<void>;
  private othersWatch = { value: false, checkedAt: 0 };

  constructor(
    private readonly deps: {
      pool: Pool;
      sender: NotificationSender;
      instanceId: string;
      /** This instance's dashboards. */
      show(events: MonitorEvent[]): void;
      log(message: string, error?: unknown): void;
    },
  ) {}

  record(transitions: Transition[]): void {
    for (const transition of transitions) {
      const key = `${transition.event}\n${transition.queue}`;
      let group = this.groups.get(key);
      if (!group) this.groups.set(key, (group = { event: transition.event, queue: transition.queue, count: 0, ids: [] }));
      group.count += transition.ids.length;
      for (const id of transition.ids) {
        if (group.ids.length >= MAX_EVENTS_PER_GROUP) break;
        group.ids.push(id);
      }
    }
    this.timer ??= this.life.timers.after(FLUSH_INTERVAL_MS, () => void (this.flushing = this.flush()));
  }

  /** A monitor socket opened somewhere: ask again before the next send. */
  presenceChanged(): void {
    this.othersWatch.checkedAt = 0;
  }

  /** What another instance gathered. */
  received(notification: MonitorNotification): void {
    if (notification.instance === this.deps.instanceId || !Array.isArray(notification.groups)) return;
    this.showGroups(notification.groups);
  }

  start(): Promise<void> {
    return this.life.start();
  }

  stop(): Promise<void> {
    return this.life.stop(async () => {
      this.timer = undefined;
      this.groups.clear();
      await this.flushing;
    });
  }

  health() {
    return this.life.health();
  }

  async flush(): Promise<void> {
    this.timer = undefined;
    const groups = [...this.groups.values()];
    this.groups.clear();
    if (groups.length === 0) return;
    this.showGroups(groups);
    if (!(await this.othersWatching())) return;
    for (const payload of chunkPayloads(groups, (chunk): MonitorNotification => ({ instance: this.deps.instanceId, groups: chunk }))) {
      this.deps.sender.send(MONITOR_CHANNEL, payload);
    }
  }

  private showGroups(groups: MonitorGroup[]): void {
    const timestamp = new Date().toISOString();
    this.deps.show(groups.flatMap((group) => monitorEventsOf(group, timestamp)));
  }

  private async othersWatching(): Promise<boolean> {
    const now = Date.now();
    if (now - this.othersWatch.checkedAt < WATCHERS_CHECK_MS) return this.othersWatch.value;
    try {
      this.othersWatch = { value: await wsMonitorExistsElsewhere(this.deps.pool, this.deps.instanceId), checkedAt: now };
    } catch (error) {
      this.deps.log('could not check for monitors on other instances', error);
    }
    return this.othersWatch.value;
  }
}
