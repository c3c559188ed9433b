import { concernsQueue, type MonitorEvent } from '@miniqueue/sdk';
import { ForbiddenError } from '../errors.js';
import type { MonitorSink } from '../realtime/monitorFeed.js';
import { errorBodyOf } from './errorBody.js';

/** The scope /ws/monitor's handshake asks for (admin has it too), asked of every watch frame here. */
export const WATCH_SCOPE = 'view';

/** `{"type":"event","sub":…,"event":…}` around an event, a name of up to 100 characters. */
const FRAME_OVERHEAD_BYTES = 130;

/** The answer to a watch: `queue` only when it has one. */
export const watchingFrame = (sub: string, queue: string | null) => (queue === null ? { type: 'watching', sub } : { type: 'watching', sub, queue });

/** What watches need of their instance: its live feed, and the monitor presence the other instances look for. */
export interface MonitorAccess {
  feed: { watch(key: object, sink: MonitorSink): void; remove(key: object): void };
  /** Counts one more viewer here; resolves once the other instances will send their events here too. */
  acquire(): Promise<void>;
  release(): void;
}

export interface WatchesDeps {
  monitor: MonitorAccess;
  /** `bytes`: about how large the frame is, counted against the stream's output cap at once. */
  send(frame: object, bytes?: number): void;
  /** The stream can take an event now (attached, its output under its cap); else the event is dropped and counted. */
  ready(): boolean;
}

interface Watch {
  sub: string;
  queue: string | null;
  /** In the feed (and counted in the presence); false while the presence is being recorded. */
  active: boolean;
}

/**
 * A stream's watches of the live feed: what /ws/monitor sends, as `event` frames. Each is one more
 * viewer of the instance's MonitorFeed, so it gets the same events from every instance, under the
 * same rate, and the same EVENTS_DROPPED marker in place of what it could not take (the stream
 * detached for a resume, or its output over the stream's cap): nothing is queued for a slow reader.
 */
export class StreamWatches {
  private readonly watches = new Map<string, Watch>();

  constructor(private readonly deps: WatchesDeps) {}

  get size(): number {
    return this.watches.size;
  }

  /** The queue filter of the watch of this name (null: every event), or undefined when there is none. */
  queueOf(sub: string): string | null | undefined {
    return this.watches.get(sub)?.queue;
  }

  /**
   * Starts a watch: answered `watching` once the presence is recorded, as /ws/monitor records it
   * before its 101, so no transition committed on another instance after the answer is missed.
   */
  async add(sub: string, queue: string | null): Promise<void> {
    const watch: Watch = { sub, queue, active: false };
    // Taken before the presence is recorded, so a second watch of the same name is refused meanwhile.
    this.watches.set(sub, watch);
    try {
      await this.deps.monitor.acquire();
    } catch (error) {
      this.deps.monitor.release();
      if (this.watches.get(sub) === watch) this.watches.delete(sub);
      throw error;
    }
    // Unwatched, or the stream ended, while the presence was recorded.
    if (this.watches.get(sub) !== watch) return this.deps.monitor.release();
    watch.active = true;
    this.deps.monitor.feed.watch(watch, {
      ready: () => this.deps.ready(),
      wants: (event: MonitorEvent) => queue === null || concernsQueue(event, queue),
      // The event's own text, and the frame's few bytes around it.
      send: (event: MonitorEvent, text: string) => this.deps.send({ type: 'event', sub, event }, text.length + FRAME_OVERHEAD_BYTES),
    });
    this.deps.send(watchingFrame(sub, queue));
  }

  /** Says whether there was such a watch; there is none now. */
  remove(sub: string): boolean {
    const watch = this.watches.get(sub);
    if (!watch) return false;
    this.watches.delete(sub);
    if (watch.active) {
      this.deps.monitor.feed.remove(watch);
      this.deps.monitor.release();
    }
    return true;
  }

  /** The credential's scopes changed: without `view` every watch ends, as /ws/monitor's sockets close. */
  rescope(allowed: boolean): void {
    if (allowed) return;
    const why = errorBodyOf(new ForbiddenError('scope_required', `This needs the scope ${WATCH_SCOPE} (or admin)`, WATCH_SCOPE), () => undefined);
    for (const sub of [...this.watches.keys()]) {
      this.remove(sub);
      this.deps.send({ type: 'subscription_ended', sub, ...why });
    }
  }

  /** The stream ended: out of the feed, the presence given back. */
  end(): void {
    for (const sub of [...this.watches.keys()]) this.remove(sub);
  }
}
