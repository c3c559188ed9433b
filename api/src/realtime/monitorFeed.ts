import { WebSocket } from 'ws';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import type { MonitorEvent } from '@miniqueue/sdk';
import { droppedMarker } from './monitorEvents.js';

export interface MonitorFeedLimits {
  /** Most events one dashboard is sent per second; the rest are counted as dropped. */
  maxPerSecond: number;
  /** Bytes that may wait in one socket's send buffer; past it, new events are dropped. */
  highWaterBytes: number;
}

const DEFAULT_LIMITS: MonitorFeedLimits = { maxPerSecond: 1000, highWaterBytes: 512 * 1024 };
const WINDOW_MS = 1000;

/** Where one viewer's events go: a /ws/monitor socket, or a stream's watch (../stream/watches.ts). */
export interface MonitorSink {
  /** Whether it can take an event now: open, and not backed up. */
  ready(): boolean;
  /** Whether it asked for this event (a watch of one queue); the drop marker is always sent. */
  wants(event: MonitorEvent): boolean;
  /** `text` is the event serialized once for every viewer, for those that send it as it is. */
  send(event: MonitorEvent, text: string): void;
}

interface Viewer {
  sink: MonitorSink;
  windowStart: number;
  sent: number;
  dropped: number;
}

/** A /ws/monitor socket: backed up once its send buffer holds highWaterBytes. */
const socketSink = (socket: WebSocket, highWaterBytes: number): MonitorSink => ({
  ready: () => socket.readyState === WebSocket.OPEN && socket.bufferedAmount < highWaterBytes,
  wants: () => true,
  send: (_event, text) => socket.send(text),
});

/**
 * Fans monitor events out to the dashboards connected to this instance (and the streams watching). Sending never waits:
 * an event a dashboard cannot take right now (over its rate, or its socket is backed up) is
 * dropped and counted, and once per second the count goes out as an EVENTS_DROPPED marker. So a
 * burst costs each dashboard at most its buffer, and the broker never queues events for anyone.
 */
export class MonitorFeed implements Service {
  readonly name = 'monitor-feed';
  private readonly life = new Lifecycle(this.name);
  private readonly viewers = new Map<object, Viewer>();

  constructor(private readonly limits: MonitorFeedLimits = DEFAULT_LIMITS) {}

  /** A /ws/monitor socket. */
  add(socket: WebSocket): void {
    this.watch(socket, socketSink(socket, this.limits.highWaterBytes));
  }

  /** Any other viewer, known by `key`, under the same rate and the same dropping as a socket. */
  watch(key: object, sink: MonitorSink): void {
    this.viewers.set(key, { sink, windowStart: Date.now(), sent: 0, dropped: 0 });
  }

  remove(key: object): void {
    this.viewers.delete(key);
  }

  get size(): number {
    return this.viewers.size;
  }

  publish(events: MonitorEvent[]): void {
    if (this.viewers.size === 0 || events.length === 0) return;
    // Serialized once, whatever the number of dashboards.
    const frames = events.map((event) => JSON.stringify(event));
    const now = Date.now();
    for (const viewer of this.viewers.values()) {
      this.roll(viewer, now);
      events.forEach((event, i) => {
        if (!viewer.sink.wants(event)) return;
        if (this.canTake(viewer)) this.send(viewer, event, frames[i]);
        else viewer.dropped += 1;
      });
    }
  }

  /** Starts a new rate window where one is due, reporting what the last one dropped. */
  runOnce(now = Date.now()): void {
    for (const viewer of this.viewers.values()) this.roll(viewer, now);
  }

  start(): Promise<void> {
    return this.life.start(() => this.life.timers.every(WINDOW_MS, () => this.runOnce()));
  }

  stop(): Promise<void> {
    return this.life.stop(() => this.viewers.clear());
  }

  health() {
    return this.life.health();
  }

  private roll(viewer: Viewer, now: number): void {
    if (now - viewer.windowStart < WINDOW_MS) return;
    viewer.windowStart = now;
    viewer.sent = 0;
    if (viewer.dropped > 0 && this.canTake(viewer)) {
      const marker = droppedMarker(viewer.dropped, new Date(now).toISOString());
      this.send(viewer, marker, JSON.stringify(marker));
      viewer.dropped = 0;
    }
  }

  private canTake(viewer: Viewer): boolean {
    return viewer.sent < this.limits.maxPerSecond && viewer.sink.ready();
  }

  private send(viewer: Viewer, event: MonitorEvent, text: string): void {
    viewer.sent += 1;
    viewer.sink.send(event, text);
  }
}
