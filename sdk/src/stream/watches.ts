import { errorFromBody } from '../http/responseError.js';
import { monitorEventOf, type MonitorEvent } from '../monitor/events.js';
import type { BrokerFrame, ClientFrame } from './frames.js';

export interface WatchHandlers {
  event(event: MonitorEvent): void;
  /** The broker ended it (the credential lost `view`: ForbiddenError), or the stream is gone for good. */
  ended(error: unknown): void;
  /** The stream was lost (`closed`: how, when it was open); the watch goes on once it is back. */
  interrupted?(error: unknown, closed?: { code: number; reason: string }): void;
  /** The broker is sending again (after `watch`, or after the stream came back). */
  watching?(): void;
}

interface Entry {
  sub: string;
  queue: string | undefined;
  handlers: WatchHandlers;
  state: 'starting' | 'active' | 'unwatching';
  started?: { resolve(): void; reject(error: unknown): void };
  unwatched?: () => void;
}

/** One watch of the live feed on the stream. */
export interface StreamWatch {
  /** No more events; resolves once the broker says so (at once when the stream is not open). */
  unwatch(): Promise<void>;
}

/**
 * The stream's watches of the broker's live feed (what /ws/monitor sends), by the name the client
 * gives each (`w1`, `w2`…: subscriptions are `s…`, as the broker holds both names in one set).
 * After a reconnect to a new stream each is made again; a resumed stream kept them.
 */
export class Watches {
  private readonly entries = new Map<string, Entry>();
  private next = 1;

  constructor(private readonly send: (frame: ClientFrame) => boolean) {}

  get size(): number {
    return this.entries.size;
  }

  /** Resolves once the broker says `watching`; rejects with its `error` (ForbiddenError without `view`). */
  watch(queue: string | undefined, handlers: WatchHandlers): Promise<StreamWatch> {
    const entry: Entry = { sub: `w${this.next++}`, queue, handlers, state: 'starting' };
    this.entries.set(entry.sub, entry);
    const started = new Promise<void>((resolve, reject) => (entry.started = { resolve, reject }));
    this.send(this.frameOf(entry));
    return started.then(() => ({ unwatch: () => this.unwatch(entry) }));
  }

  /** Handles the frames of its watches; false for any other. */
  answer(frame: BrokerFrame): boolean {
    const entry = 'sub' in frame && frame.sub !== undefined ? this.entries.get(frame.sub) : undefined;
    if (!entry) return frame.type === 'event' || frame.type === 'watching' || frame.type === 'unwatched';
    if (frame.type === 'event') {
      // Read as a /ws/monitor frame is, so both transports give the same events.
      const event = monitorEventOf(frame.event);
      if (event) entry.handlers.event(event);
    } else if (frame.type === 'watching') this.activated(entry);
    else if (frame.type === 'unwatched') this.remove(entry);
    else if (frame.type === 'subscription_ended' || frame.type === 'error') this.end(entry, errorFromBody(frame.status, frame));
    else return false;
    return true;
  }

  /** The stream opened again: a new stream has no watches, so each is made again; a resumed one kept them. */
  reopened(resumed: boolean): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.state === 'unwatching') {
        if (resumed) this.send({ type: 'unwatch', sub: entry.sub });
        else this.remove(entry);
      } else if (!resumed || entry.state === 'starting') this.send(this.frameOf(entry));
      else entry.handlers.watching?.();
    }
  }

  interrupted(error: unknown, closed?: { code: number; reason: string }): void {
    for (const entry of [...this.entries.values()]) entry.handlers.interrupted?.(error, closed);
  }

  failAll(error: unknown): void {
    for (const entry of [...this.entries.values()]) this.end(entry, error);
  }

  private frameOf(entry: Entry): ClientFrame {
    return entry.queue === undefined ? { type: 'watch', sub: entry.sub } : { type: 'watch', sub: entry.sub, queue: entry.queue };
  }

  private unwatch(entry: Entry): Promise<void> {
    if (!this.entries.has(entry.sub)) return Promise.resolve();
    entry.state = 'unwatching';
    const done = new Promise<void>((resolve) => (entry.unwatched = resolve));
    // Not open: nothing to tell; the next stream simply does not watch it again.
    if (!this.send({ type: 'unwatch', sub: entry.sub })) this.remove(entry);
    return done;
  }

  private activated(entry: Entry): void {
    if (entry.state === 'unwatching') return;
    entry.state = 'active';
    entry.started?.resolve();
    entry.started = undefined;
    entry.handlers.watching?.();
  }

  private end(entry: Entry, error: unknown): void {
    const wasStarting = entry.started !== undefined;
    entry.started?.reject(error);
    this.remove(entry);
    if (!wasStarting) entry.handlers.ended(error);
  }

  private remove(entry: Entry): void {
    this.entries.delete(entry.sub);
    entry.started = undefined;
    entry.unwatched?.();
  }
}
