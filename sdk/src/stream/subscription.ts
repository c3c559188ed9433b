import { MessageFromJSON, type Message } from '../generated/index.js';
import { errorFromBody } from '../http/responseError.js';
import type { BrokerFrame, ClientFrame } from './frames.js';

export interface SubscriptionHandlers {
  deliver(message: Message): void;
  /** The broker ended it (queue deleted: NotFoundError; scope removed: ForbiddenError), or the stream is gone. */
  ended(error: unknown): void;
  /** The stream was lost (an attempt to reopen it failed); the subscription goes on once it is back. */
  interrupted?(error: unknown): void;
}

interface Entry {
  sub: string;
  queue: string;
  prefetch: number;
  handlers: SubscriptionHandlers;
  state: 'subscribing' | 'active' | 'unsubscribing';
  /** Its subscribe was sent again on a resumed stream, which may have had it already. */
  resent?: boolean;
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

  /**
   * The stream opened again. A resumed stream kept its subscriptions: only frames that may not
   * have reached it are sent again. A new stream has none: each is made again, and an unsubscribe
   * under way is done.
   */
  reopened(resumed: boolean): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.state === 'unsubscribing') {
        if (resumed) this.send({ type: 'unsubscribe', sub: entry.sub });
        else this.remove(entry);
      } else if (!resumed || entry.state === 'subscribing') {
        entry.resent = resumed;
        this.send({ type: 'subscribe', sub: entry.sub, queue: entry.queue, prefetch: entry.prefetch });
      }
    }
  }

  /** Tells every subscription that the stream is down for now (it keeps trying). */
  interrupted(error: unknown): void {
    for (const entry of [...this.entries.values()]) entry.handlers.interrupted?.(error);
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
    // A subscribe sent again on a resumed stream that had it already: it is there, which is what was asked.
    if (frame.type === 'error' && entry.state === 'subscribing' && entry.resent && isSubInUse(frame)) return this.activated(entry);
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

/** The broker's answer to a subscribe whose `sub` its stream already has. */
function isSubInUse(frame: { status: number; errors?: unknown }): boolean {
  return frame.status === 400 && Array.isArray(frame.errors) && frame.errors.some((error: { field?: unknown }) => error?.field === 'sub');
}
