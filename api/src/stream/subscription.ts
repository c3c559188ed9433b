import type { HeldMessage } from '../db/queries/messageClaim.js';
import type { MessageRow } from '../db/queries/messageRow.js';

/** Messages claimed for one subscription at a time at most (as one HTTP receive). */
const MAX_CLAIM = 100;
/** After a claim failed for a reason a retry can mend (the database away): wait, then claim again. */
const RETRY_AFTER_FAILURE_MS = 1000;

export interface SubscriptionDeps {
  /**
   * Claims up to `limit` messages, waiting (as a long poll, holding no connection) until there are
   * any or the wait is over; claims nothing once `signal` is aborted.
   */
  claim(limit: number, signal: AbortSignal): Promise<MessageRow[]>;
  deliver(row: MessageRow): void;
  /** The stream cannot take more now (detached, or its socket is not draining). */
  blocked(): boolean;
  /** The claim failed: says whether it ends the subscription (queue gone, no scope) or is retried. */
  failed(error: unknown): 'end' | 'retry';
}

interface Held extends HeldMessage {
  /** When its lease ends (ms); past it, the message is no longer this subscription's. */
  leaseEndsAt: number;
}

/**
 * One queue's deliveries on a stream, under a prefetch window (AMQP's basic.qos): while it holds
 * fewer unacked messages than `prefetch`, it claims more, through the same group-committed claim
 * as HTTP, so every subscription of the instance with room shares one claim statement per turn.
 * It waits without a connection while the queue is empty, and while it has no room until an ack,
 * nack, credit or lease end frees some.
 */
export class Subscription {
  private readonly held = new Map<string, Held>();
  private readonly abort = new AbortController();
  /** The claim under way, if any: aborted when the subscription stops or its window shrinks. */
  private claiming: AbortController | undefined;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    readonly sub: string,
    readonly queue: string,
    private prefetch: number,
    private readonly deps: SubscriptionDeps,
  ) {}

  get ended(): boolean {
    return this.abort.signal.aborted;
  }

  get window(): number {
    return this.prefetch;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops claiming (a claim under way puts back what it got); what it holds stays held. */
  stop(): Promise<void> {
    this.abort.abort();
    this.claiming?.abort();
    this.poke();
    return this.loop ?? Promise.resolve();
  }

  /**
   * A smaller window applies to what a claim under way brings back too: that claim is aborted, so
   * what it claimed goes back to PENDING at once (longPoll.ts, retry count unchanged) and is never
   * delivered; the loop then claims for the new window (nothing, at 0, until credit returns).
   */
  setPrefetch(prefetch: number): void {
    const smaller = prefetch < this.prefetch;
    this.prefetch = prefetch;
    if (smaller) this.claiming?.abort();
    this.poke();
  }

  /** Says whether this subscription held the message; it no longer does. */
  settled(id: string): boolean {
    if (!this.held.delete(id)) return false;
    this.poke();
    return true;
  }

  /** The lease was extended: held until then. */
  extended(id: string, leaseEndsAt: Date): void {
    const held = this.held.get(id);
    if (held) held.leaseEndsAt = leaseEndsAt.getTime();
  }

  /** What it holds: to release when the stream ends, or to deliver again when it resumes. */
  holding(): HeldMessage[] {
    return [...this.held.values()].map(({ id, retryCount }) => ({ id, retryCount }));
  }

  /** Room freed, or the stream can take more again: claim if there is room. */
  poke(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const held = this.pruned();
      const room = this.prefetch - held;
      // Room is claimed in chunks of a quarter window while messages are held (as Pub/Sub's flow
      // control refills): acks that arrive one by one would otherwise cost a claim statement each.
      const worthClaiming = held === 0 ? room > 0 : room >= Math.max(1, Math.floor(this.prefetch / 4));
      if (!worthClaiming || this.deps.blocked()) {
        await this.idle();
        continue;
      }
      let rows: MessageRow[];
      const claiming = new AbortController();
      this.claiming = claiming;
      try {
        rows = await this.deps.claim(Math.min(room, MAX_CLAIM), claiming.signal);
      } catch (error) {
        if (signal.aborted) return;
        if (this.deps.failed(error) === 'end') return void this.abort.abort();
        await this.idle(RETRY_AFTER_FAILURE_MS);
        continue;
      } finally {
        this.claiming = undefined;
      }
      for (const row of rows) {
        this.held.set(row.id, { id: row.id, retryCount: row.retry_count, leaseEndsAt: row.lease_expires_at?.getTime() ?? Infinity });
        this.deps.deliver(row);
      }
    }
  }

  /** Forgets messages whose lease ended (they are another consumer's now); answers how many it holds. */
  private pruned(): number {
    const now = Date.now();
    for (const [id, held] of this.held) if (held.leaseEndsAt <= now) this.held.delete(id);
    return this.held.size;
  }

  /** Until poked, the next lease end (which frees room), or `ms`. */
  private idle(ms?: number): Promise<void> {
    let next = ms ?? Infinity;
    for (const held of this.held.values()) next = Math.min(next, held.leaseEndsAt - Date.now() + 1);
    return new Promise<void>((resolve) => {
      const timer = Number.isFinite(next) ? setTimeout(() => this.poke(), Math.max(1, next)) : undefined;
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
