import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import { makesClaimable, type Changes, type Transition } from '../broker/changes.js';
import type { QueueNews, WakeupNotification } from './channels.js';
import { chunkPayloads, type NotificationSender } from './notificationSender.js';

export const WAKEUP_CHANNEL = 'miniqueue_wakeup';

/**
 * Tells other instances' long polls that messages became claimable, debounced: the first change
 * after a quiet spell is sent at once (leading edge), later ones are gathered and sent together
 * when `cooldownMs` has passed since the last send (trailing edge). So one NOTIFY covers every
 * commit of a few milliseconds, whatever the traffic, and a waiter elsewhere hears within about
 * `cooldownMs` of the commit. (River sends insert notifications through a per-queue limiter for the
 * same reason; ours keeps the trailing edge, because a waiter here has no fetch poll to fall back on
 * but its five-second safety recheck.)
 */
export class WakeupBroadcast implements Service {
  readonly name = 'wakeup-broadcast';
  private readonly life = new Lifecycle(this.name);
  private pending = new Map<string, { count: number; at: string | null }>();
  private lastSentAt = 0;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sender: NotificationSender,
    private readonly changes: Changes,
    private readonly instanceId: string,
    private readonly cooldownMs = 5,
  ) {}

  private readonly record = (transitions: Transition[]): void => {
    let changed = false;
    for (const transition of transitions) {
      if (!makesClaimable(transition)) continue;
      const news = this.pending.get(transition.queue) ?? { count: 0, at: null };
      if (!transition.delayed) news.count += transition.ids.length;
      else if (transition.availableAt && (news.at === null || Date.parse(transition.availableAt) < Date.parse(news.at))) {
        news.at = transition.availableAt;
      }
      this.pending.set(transition.queue, news);
      changed = true;
    }
    if (changed) this.due();
  };

  start(): Promise<void> {
    return this.life.start(() => this.changes.on('transitions', this.record));
  }

  stop(): Promise<void> {
    return this.life.stop(() => {
      this.changes.off('transitions', this.record);
      this.timer = undefined;
      this.pending.clear();
    });
  }

  health() {
    return this.life.health();
  }

  private due(): void {
    if (this.timer) return;
    const wait = this.lastSentAt + this.cooldownMs - Date.now();
    if (wait <= 0) this.send();
    else this.timer = this.life.timers.after(wait, () => this.send());
  }

  private send(): void {
    this.timer = undefined;
    if (this.pending.size === 0) return;
    this.lastSentAt = Date.now();
    const queues: QueueNews[] = [...this.pending].map(([queue, news]) => [queue, news.count, news.at]);
    this.pending.clear();
    for (const payload of chunkPayloads(queues, (chunk): WakeupNotification => ({ instance: this.instanceId, queues: chunk }))) {
      this.sender.send(WAKEUP_CHANNEL, payload);
    }
  }
}
