import { ConflictError, NotFoundError } from '../errors.js';
import type { Message } from '../generated/index.js';
import type { HeartbeatOptions } from './types.js';

export interface LeasesOptions {
  heartbeat: HeartbeatOptions | false;
  /** How long a message may be held, from its delivery, before it is handed back. */
  maxExtensionMs: number;
  extend(messageId: string, seconds: number): Promise<unknown>;
  /** The broker said the message is no longer ours (409/404 on an extension). */
  lost(message: Message, error: unknown): void;
  /** The message was held for the maximum extension: it must be handed back now, before its lease ends. */
  reachedMaximum(message: Message): void;
  /** An extension that failed without losing the lease (network, 5xx after retries): tried again soon. */
  failed(message: Message, error: unknown): void;
}

interface Entry {
  message: Message;
  intervalMs: number;
  extendSeconds: number;
  /** When it should next be extended. */
  dueAt: number;
  /** When it is handed back: its delivery plus the maximum extension. */
  handBackAt: number;
  extending: boolean;
}

/** The lease the broker granted: from the claim to `lease_expires_at`, in whole seconds. */
export function leaseSeconds(message: Message): number {
  const start = message.unacked_at?.getTime();
  const end = message.lease_expires_at?.getTime();
  if (start === undefined || end === undefined) return 30;
  return Math.max(1, Math.round((end - start) / 1000));
}

/** Shortest wait before a failed extension is tried again. */
const MIN_RETRY_MS = 100;

/**
 * Keeps the leases of every message a consumer holds, waiting in its buffer or in a handler, as
 * Pub/Sub's client does: each is extended (by its lease length) every half lease, until it is
 * settled or has been held for the maximum extension, when it is handed back instead.
 *
 * Extensions are coalesced: one timer for all of them, and each round extends every message due
 * within the next half interval, all in the same turn of the event loop, so the stream sends one
 * `extend` frame for all of them (see stream/settler.ts) and the broker runs one statement. Messages
 * delivered together stay in step, so N held messages cost about two rounds per interval, not N.
 */
export class Leases {
  private readonly entries = new Map<string, Entry>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(private readonly options: LeasesOptions) {}

  /** Starts keeping this delivery's lease (a newer claim of the same id takes the older one's place). */
  hold(message: Message): void {
    if (this.options.heartbeat === false) return;
    const lease = leaseSeconds(message);
    const intervalMs = this.options.heartbeat.intervalMs ?? (lease * 1000) / 2;
    const now = Date.now();
    this.entries.set(message.message_id, {
      message,
      intervalMs,
      extendSeconds: this.options.heartbeat.extendSeconds ?? lease,
      dueAt: now + intervalMs,
      handBackAt: now + this.options.maxExtensionMs,
      extending: false,
    });
    this.schedule();
  }

  /** Stops keeping this delivery's lease: it was settled, handed back or lost. */
  release(message: Message): void {
    if (this.entries.get(message.message_id)?.message === message) this.entries.delete(message.message_id);
  }

  /** The handler's own extension, at once; throws what the broker answered (a lost lease is no longer kept). */
  async extendNow(message: Message, seconds: number): Promise<void> {
    try {
      await this.options.extend(message.message_id, seconds);
    } catch (error) {
      if (isLoss(error)) this.release(message);
      throw error;
    }
  }

  /** Forgets every lease (the consumer stopped waiting for its handlers). */
  clear(): void {
    this.entries.clear();
    clearTimeout(this.timer);
    this.timerAt = Infinity;
  }

  private schedule(): void {
    let next = Infinity;
    for (const entry of this.entries.values()) next = Math.min(next, entry.handBackAt, entry.extending ? Infinity : entry.dueAt);
    if (next >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = next;
    if (next === Infinity) return;
    this.timer = setTimeout(() => this.round(), Math.max(0, next - Date.now()));
  }

  /** Hands back what reached the maximum; extends, in this one turn, everything due soon. */
  private round(): void {
    this.timerAt = Infinity;
    const now = Date.now();
    for (const entry of [...this.entries.values()]) {
      if (now >= entry.handBackAt) {
        this.entries.delete(entry.message.message_id);
        this.options.reachedMaximum(entry.message);
      } else if (!entry.extending && entry.dueAt <= now + entry.intervalMs / 2) {
        void this.extend(entry, now);
      }
    }
    this.schedule();
  }

  private async extend(entry: Entry, now: number): Promise<void> {
    entry.extending = true;
    entry.dueAt = now + entry.intervalMs;
    try {
      await this.options.extend(entry.message.message_id, entry.extendSeconds);
    } catch (error) {
      if (this.entries.get(entry.message.message_id) !== entry) return; // settled meanwhile: nothing to keep
      if (isLoss(error)) return this.lose(entry, error);
      // Soon, while what is left of the lease leaves time for more tries.
      entry.dueAt = Date.now() + Math.max(MIN_RETRY_MS, entry.intervalMs / 4);
      this.options.failed(entry.message, error);
    } finally {
      entry.extending = false;
      if (this.entries.get(entry.message.message_id) === entry) this.schedule();
    }
  }

  private lose(entry: Entry, error: unknown): void {
    this.entries.delete(entry.message.message_id);
    this.options.lost(entry.message, error);
  }
}

/** A 409/404 on extension: the lease is gone (redelivered, taken, purged). */
export const isLoss = (error: unknown) => error instanceof ConflictError || error instanceof NotFoundError;
