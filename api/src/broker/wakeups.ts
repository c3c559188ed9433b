import type { MessageEvent, NotificationBus } from '../realtime/bus.js';
import type { QueueWaiters } from './waiters.js';

/** Events after which messages are PENDING again, i.e. claimable now or at `available_at`. */
const MAKES_CLAIMABLE = new Set(['PUBLISHED', 'NACKED', 'REDELIVERED', 'REPLAYED']);

/**
 * Wakes long-polling consumers when messages become claimable, on any instance. A delayed
 * message arms one timer per queue for the earliest such time.
 */
export function wireWakeups(bus: NotificationBus, waiters: QueueWaiters): () => void {
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

  const onMessage = (event: MessageEvent) => {
    if (!MAKES_CLAIMABLE.has(event.event) || !event.available_at) return;
    const at = Date.parse(event.available_at);
    if (at <= Date.now()) waiters.wake(event.queue, event.count);
    else arm(event.queue, at);
  };
  // After a reconnect anything may have been missed: let every waiter look again.
  const onReset = () => waiters.wakeAll();

  bus.on('message', onMessage);
  bus.on('reset', onReset);
  return () => {
    bus.off('message', onMessage);
    bus.off('reset', onReset);
    for (const { timer } of timers.values()) clearTimeout(timer);
    timers.clear();
  };
}
