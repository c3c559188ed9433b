import { MessageFromJSON, type Message } from '../generated/index.js';
import { errorFromBody } from '../http/responseError.js';
import type { BrokerFrame, ClientFrame } from './frames.js';

export interface SubscriptionHandlers {
  deliver(message: Message): void;
  /** The broker ended it (queue deleted: NotFoundError; scope removed: ForbiddenError), or the stream is gone. */
  ended(error: unknown): void;
}

interface Entry {
  sub: string;
  queue: string;
  prefetch: number;
  handlers: SubscriptionHandlers;
  state: 'subscribing' | 'active' | 'unsubscribing';
  subscribed?: { resolve(): void; reject(error: unknown): void };
  unsubscribed?: () => void;
}

/** One subscription on the stream, as its consumer holds it. */
export interface StreamSubscription {
  readonly queue: string;
  /** Sets how many unacked messages the broker may push (0 pauses deliveries). */
  credit(prefetch: number): void;
  /** No more deliveries; its unacked messages stay the consumer's until settled or released. */
  unsubscribe(): Promise<void>;
}

/**
 * The stream's subscriptions, by the name the client gives each (`sub`). Deliveries go to their
 * subscription's handler; after a reconnect every subscription is made again, so deliveries
 * resume without the consumer noticing more than a pause.
 */
export class Subscriptions {
  private readonly entries = new Map<string, Entry>();
  private next = 1;

  constructor(private readonly send: (frame: ClientFrame) => boolean) {}

  get size(): number {
    return this.entries.size;
  }

  /** Resolves once the broker says `subscribed`; rejects with its `error` (NotFoundError, ForbiddenError…). */
  subscribe(queue: string, prefetch: number, handlers: SubscriptionHandlers): Promise<StreamSubscription> {
    const entry: Entry = { sub: `s${this.next++}`, queue, prefetch, handlers, state: 'subscribing' };
    this.entries.set(entry.sub, entry);
    const subscribed = new Promise<void>((resolve, reject) => (entry.subscribed = { resolve, reject }));
    this.send({ type: 'subscribe', sub: entry.sub, queue, prefetch });
    return subscribed.then(() => this.handle(entry));
  }

  /** Handles the frames that name a `sub`; false for any other. */
  answer(frame: BrokerFrame): boolean {
    const sub = 'sub' in frame ? frame.sub : undefined;
    const entry = sub === undefined ? undefined : this.entries.get(sub);
    if (!entry) return frame.type === 'deliver' || (sub !== undefined && frame.type !== 'error');
    if (frame.type === 'deliver') entry.handlers.deliver(MessageFromJSON(frame.message));
    else if (frame.type === 'subscribed') this.activated(entry);
    else if (frame.type === 'unsubscribed') this.remove(entry);
    else if (frame.type === 'subscription_ended' || frame.type === 'error') this.refused(entry, frame);
    else return false;
    return true;
  }

  /** The stream (re)opened: every subscription is made again, every unsubscribe finished. */
  reopened(): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.state === 'unsubscribing') this.remove(entry);
      else this.send({ type: 'subscribe', sub: entry.sub, queue: entry.queue, prefetch: entry.prefetch });
    }
  }

  /** Ends every subscription with this error (the stream is gone for good). */
  failAll(error: unknown): void {
    for (const entry of [...this.entries.values()]) this.end(entry, error);
  }

  private handle(entry: Entry): StreamSubscription {
    return {
      queue: entry.queue,
      credit: (prefetch) => {
        entry.prefetch = prefetch;
        if (entry.state === 'active') this.send({ type: 'credit', sub: entry.sub, prefetch });
      },
      unsubscribe: () => {
        if (!this.entries.has(entry.sub)) return Promise.resolve();
        entry.state = 'unsubscribing';
        const done = new Promise<void>((resolve) => (entry.unsubscribed = resolve));
        // Not open: nothing to tell; the next stream simply does not subscribe it again.
        if (!this.send({ type: 'unsubscribe', sub: entry.sub })) this.remove(entry);
        return done;
      },
    };
  }

  private activated(entry: Entry): void {
    if (entry.state === 'subscribing') entry.state = 'active';
    entry.subscribed?.resolve();
    entry.subscribed = undefined;
  }

  private refused(entry: Entry, frame: Extract<BrokerFrame, { type: 'subscription_ended' | 'error' }>): void {
    // A resumed stream may still have it: subscribing again is then a conflict, and harmless.
    if (frame.type === 'error' && frame.status === 409 && entry.state === 'active') return;
    this.end(entry, errorFromBody(frame.status, frame));
  }

  private end(entry: Entry, error: unknown): void {
    const wasSubscribing = entry.subscribed !== undefined;
    entry.subscribed?.reject(error);
    this.remove(entry);
    if (!wasSubscribing) entry.handlers.ended(error);
  }

  private remove(entry: Entry): void {
    this.entries.delete(entry.sub);
    entry.subscribed = undefined;
    entry.unsubscribed?.();
  }
}
