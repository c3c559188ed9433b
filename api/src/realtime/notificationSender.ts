import type { Pool } from '../db/pool.js';

/** NOTIFY's payload limit is 8000 bytes; stay under it with room to spare. */
export const MAX_PAYLOAD_BYTES = 7_500;

/**
 * Sends NOTIFYs outside any message transaction: everything asked for in one turn of the event loop
 * leaves in ONE autocommit statement. Notifications are hints (every waiter also rechecks on a
 * timer), so a failed send is logged, not retried.
 */
export class NotificationSender {
  private outbox: { channel: string; payload: string }[] = [];
  private scheduled = false;

  constructor(
    private readonly pool: Pool,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  send(channel: string, payload: string): void {
    this.outbox.push({ channel, payload });
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.outbox;
    this.outbox = [];
    try {
      await this.pool.query('SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS n (c, p)', [
        batch.map((n) => n.channel),
        batch.map((n) => n.payload),
      ]);
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
