import type { Pool } from '../db/pool.js';
import { notificationSendMany } from '../db/queries/notification.js';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';

/** NOTIFY's payload limit is 8000 bytes; stay under it with room to spare. */
export const MAX_PAYLOAD_BYTES = 7_500;

/**
 * Sends NOTIFYs outside any message transaction: everything asked for in one turn of the event loop
 * leaves in ONE autocommit statement. Notifications are hints (every waiter also rechecks on a
 * timer), so a failed send is logged, not retried.
 */
export class NotificationSender implements Service {
  readonly name = 'notification-sender';
  private readonly life = new Lifecycle(this.name);
  private outbox: { channel: string; payload: string }[] = [];
  /** The flush asked for in this turn of the event loop, until it has run. */
  private scheduled?: Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  send(channel: string, payload: string): void {
    this.outbox.push({ channel, payload });
    this.scheduled ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  start(): Promise<void> {
    return this.life.start();
  }

  /** What was asked for before the stop still leaves (the pool is stopped after this). */
  stop(): Promise<void> {
    return this.life.stop(() => this.scheduled);
  }

  health() {
    return this.life.health();
  }

  private async flush(): Promise<void> {
    this.scheduled = undefined;
    const batch = this.outbox;
    this.outbox = [];
    try {
      await notificationSendMany(this.pool, batch);
    } catch (error) {
      this.log(`could not notify other instances; ${batch.length} notifications dropped`, error);
    }
  }
}

/** Splits items into JSON payloads of at most MAX_PAYLOAD_BYTES each: `wrap(chunk)` builds one. */
export function chunkPayloads<T>(items: T[], wrap: (chunk: T[]) => unknown): string[] {
  const payloads: string[] = [];
  let chunk: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (chunk.length > 0 && size + itemSize > MAX_PAYLOAD_BYTES - 200) {
      payloads.push(JSON.stringify(wrap(chunk)));
      chunk = [];
      size = 0;
    }
    chunk.push(item);
    size += itemSize;
  }
  if (chunk.length > 0) payloads.push(JSON.stringify(wrap(chunk)));
  return payloads;
}
