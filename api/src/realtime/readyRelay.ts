import type { Pool } from '../db/pool.js';
import type { ReadyEvent, WsMemberEvent } from './channels.js';
import { makesClaimable, type Transition } from '../broker/changes.js';
import type { NotificationSender } from './notificationSender.js';
import { wsConsumerList } from '../db/queries/wsConsumer.js';

export const READY_CHANNEL = 'miniqueue_ready';
/** Ids per ready notification: 150 uuids and the envelope stay under NOTIFY's 8000 bytes. */
const IDS_PER_NOTIFICATION = 150;

/**
 * Tells the dispatcher (on whichever instance holds its lock) which messages just became claimable
 * in queues that have consumer sockets somewhere, after commit: directly when the dispatcher is on
 * this instance, else in NOTIFYs gathered per turn of the event loop. Which queues have sockets is
 * learnt from the socket join/leave notifications every instance hears (and reloaded after a
 * reconnect); a queue with no socket anywhere costs nothing here.
 */
export class ReadyRelay {
  /** queue → ids of its consumer sockets, on every instance. */
  private readonly sockets = new Map<string, Set<string>>();

  constructor(
    private readonly deps: {
      pool: Pool;
      sender: NotificationSender;
      /** The dispatcher, when it runs on this instance (null otherwise). */
      localDispatcher(): { onReady(event: ReadyEvent): void } | null;
      log(message: string, error?: unknown): void;
    },
  ) {}

  record(transitions: Transition[]): void {
    for (const transition of transitions) {
      if (!makesClaimable(transition) || !this.sockets.has(transition.queue)) continue;
      const base = { queue: transition.queue, available_at: transition.availableAt ?? '', delayed: transition.delayed ?? false };
      const ids = base.delayed ? [] : transition.ids;
      const dispatcher = this.deps.localDispatcher();
      if (dispatcher) {
        dispatcher.onReady({ ...base, ids });
        continue;
      }
      // A delayed group carries no ids (the dispatcher looks them up when due): one notification.
      for (let start = 0; start === 0 || start < ids.length; start += IDS_PER_NOTIFICATION) {
        const event: ReadyEvent = { ...base, ids: ids.slice(start, start + IDS_PER_NOTIFICATION) };
        this.deps.sender.send(READY_CHANNEL, JSON.stringify(event));
      }
    }
  }

  memberChanged(event: WsMemberEvent): void {
    if (event.op === 'INSERT') {
      let set = this.sockets.get(event.queue);
      if (!set) this.sockets.set(event.queue, (set = new Set()));
      set.add(event.id);
      return;
    }
    const set = this.sockets.get(event.queue);
    set?.delete(event.id);
    if (set?.size === 0) this.sockets.delete(event.queue);
  }

  /** After (re)connecting: the notifications of joins and leaves may have been missed. */
  async reload(): Promise<void> {
    try {
      const rows = await wsConsumerList(this.deps.pool);
      this.sockets.clear();
      for (const row of rows) this.memberChanged({ op: 'INSERT', id: row.id, queue: row.queue_name, instance: row.instance_id });
    } catch (error) {
      this.deps.log('could not load which queues have consumer sockets', error);
    }
  }
}
