import type { NotificationBus, TopologyEvent } from '../realtime/bus.js';
import { MAKES_CLAIMABLE, type Changes, type Transition } from '../realtime/changes.js';
import type { WakeupNotification } from '../realtime/wakeupBroadcast.js';
import type { QueueWaiters } from './waiters.js';

/**
 * Wakes long-polling consumers when messages become claimable: at once for this instance's own
 * commits (in-process, right after commit), and on other instances' debounced notifications. A
 * delayed message arms one timer per queue for the earliest such time.
 */
export function wireWakeups(
  changes: Changes,
  bus: NotificationBus,
  waiters: QueueWaiters,
  instanceId: string,
): () => void {
  const timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  const arm = (queue: string, at: number) => {
    const existing = timers.get(queue);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(() => {
      timers.delete(queue);
      waiters.wake(queue, Number.POSITIVE_INFINITY);
    }, at - Date.now());
    timer.unref();
    timers.set(queue, { at, timer });
  };
  const news = (queue: string, count: number, at: string | null) => {
    if (count > 0) waiters.wake(queue, count);
    if (at) arm(queue, Date.parse(at));
  };

  const onLocal = (transitions: Transition[]) => {
    for (const t of transitions) {
      if (!MAKES_CLAIMABLE.has(t.event)) continue;
      if (t.delayed && t.availableAt) news(t.queue, 0, t.availableAt);
      else news(t.queue, t.ids.length, null);
    }
  };
  const onRemote = (notification: WakeupNotification) => {
    if (notification.instance === instanceId || !Array.isArray(notification.queues)) return;
    for (const [queue, count, at] of notification.queues) news(queue, count, at);
  };
  // A deleted queue's waiters look again now, find no queue and answer 404, on every instance.
  const onTopology = (event: TopologyEvent) => {
    if (event.kind === 'queue' && event.op === 'DELETE') waiters.wake(event.name, Number.POSITIVE_INFINITY);
  };
  // After a reconnect anything may have been missed: let every waiter look again.
  const onReset = () => waiters.wakeAll();

  changes.on('transitions', onLocal);
  bus.on('wakeup', onRemote);
  bus.on('topology', onTopology);
  bus.on('reset', onReset);
  return () => {
    changes.off('transitions', onLocal);
    bus.off('wakeup', onRemote);
    bus.off('topology', onTopology);
    bus.off('reset', onReset);
    for (const { timer } of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}
