import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { NotificationBus } from '../realtime/bus.js';
import type { TopologyEvent, WakeupNotification } from '../realtime/channels.js';
import { makesClaimable, type Changes, type Transition, type TransitionEvent } from './changes.js';
import type { QueueWaiters } from './longPollWaiters.js';

/** Transitions that take messages from their consumer without making them claimable again. */
const LEAVES_CONSUMER: ReadonlySet<TransitionEvent> = new Set(['ACKED', 'NACKED_DEAD', 'EXPIRED_DEAD']);

/**
 * Wakes long-polling consumers when messages become claimable: at once for this instance's own
 * commits (in-process, right after commit), and on other instances' debounced notifications. A
 * delayed message arms one timer per queue for the earliest such time.
 */
export class Wakeups implements Service {
  readonly name = 'long-poll-wakeups';
  private readonly life = new Lifecycle(this.name);
  /** queue → its earliest delayed message's time, and the timer that wakes its waiters then. */
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly deps: {
      changes: Changes;
      bus: NotificationBus;
      waiters: QueueWaiters;
      instanceId: string;
      /** A fair queue (gatedClaims.ts): a message leaving its consumer may let a key at its limit go on. */
      isFair?: (queue: string) => boolean;
    },
  ) {}

  start(): Promise<void> {
    return this.life.start(() => {
      this.deps.changes.on('transitions', this.onLocal);
      this.deps.bus.on('wakeup', this.onRemote).on('topology', this.onTopology).on('reset', this.onReset);
    });
  }

  stop(): Promise<void> {
    return this.life.stop(() => {
      this.deps.changes.off('transitions', this.onLocal);
      this.deps.bus.off('wakeup', this.onRemote).off('topology', this.onTopology).off('reset', this.onReset);
      this.delayed.clear();
    });
  }

  health() {
    return this.life.health();
  }

  private arm(queue: string, at: number): void {
    const existing = this.delayed.get(queue);
    if (existing && existing.at <= at) return;
    this.life.timers.cancel(existing?.timer);
    const timer = this.life.timers.after(at - Date.now(), () => {
      this.delayed.delete(queue);
      this.deps.waiters.wake(queue, Number.POSITIVE_INFINITY);
    });
    if (timer) this.delayed.set(queue, { at, timer });
  }

  private news(queue: string, count: number, at: string | null): void {
    if (count > 0) this.deps.waiters.wake(queue, count);
    if (at) this.arm(queue, Date.parse(at));
  }

  private readonly onLocal = (transitions: Transition[]) => {
    for (const t of transitions) {
      if (LEAVES_CONSUMER.has(t.event) && this.deps.isFair?.(t.queue)) this.news(t.queue, t.ids.length, null);
      if (!makesClaimable(t)) continue;
      if (t.delayed && t.availableAt) this.news(t.queue, 0, t.availableAt);
      else this.news(t.queue, t.ids.length, null);
    }
  };

  private readonly onRemote = (notification: WakeupNotification) => {
    if (notification.instance === this.deps.instanceId || !Array.isArray(notification.queues)) return;
    for (const [queue, count, at] of notification.queues) this.news(queue, count, at);
  };

  /** A deleted queue's waiters look again now, find no queue and answer 404, on every instance. */
  private readonly onTopology = (event: TopologyEvent) => {
    if (event.kind === 'queue' && event.op === 'DELETE') this.deps.waiters.wake(event.name, Number.POSITIVE_INFINITY);
  };

  /** After a reconnect anything may have been missed: let every waiter look again. */
  private readonly onReset = () => this.deps.waiters.wakeAll();
}
