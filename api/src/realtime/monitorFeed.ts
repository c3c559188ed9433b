import { WebSocket } from 'ws';
import { Lifecycle } from '../lifecycle/lifecycle.js';
import type { Service } from '../lifecycle/service.js';
import { droppedMarker, type MonitorEvent } from './monitorEvents.js';

export interface MonitorFeedLimits {
  /** Most events one dashboard is sent per second; the rest are counted as dropped. */
  maxPerSecond: number;
  /** Bytes that may wait in one socket's send buffer; past it, new events are dropped. */
  highWaterBytes: number;
}

const DEFAULT_LIMITS: MonitorFeedLimits = { maxPerSecond: 1000, highWaterBytes: 512 * 1024 };
const WINDOW_MS = 1000;

interface Viewer {
  socket: WebSocket;
  windowStart: number;
  sent: number;
  dropped: number;
}

/**
 * Fans monitor events out to the dashboards connected to this instance. Sending never waits:
 * an event a dashboard cannot take right now (over its rate, or its socket is backed up) is
 * dropped and counted, and once per second the count goes out as an EVENTS_DROPPED marker. So a
 * burst costs each dashboard at most its buffer, and the broker never queues events for anyone.
 */
export class MonitorFeed implements Service {
  readonly name = 'monitor-feed';
  private readonly life = new Lifecycle(this.name);
  private readonly viewers = new Map<WebSocket, Viewer>();

  constructor(private readonly limits: MonitorFeedLimits = DEFAULT_LIMITS) {}

  add(socket: WebSocket): void {
    this.viewers.set(socket, { socket, windowStart: Date.now(), sent: 0, dropped: 0 });
  }

  remove(socket: WebSocket): void {
    this.viewers.delete(socket);
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
      for (const frame of frames) {
        if (this.canTake(viewer)) this.send(viewer, frame);
        else viewer.dropped += 1;
      }
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
      this.send(viewer, JSON.stringify(droppedMarker(viewer.dropped, new Date(now).toISOString())));
      viewer.dropped = 0;
    }
  }

  private canTake(viewer: Viewer): boolean {
    return (
      viewer.socket.readyState === WebSocket.OPEN &&
      viewer.sent < this.limits.maxPerSecond &&
      viewer.socket.bufferedAmount < this.limits.highWaterBytes
    );
  }

  private send(viewer: Viewer, frame: string): void {
    viewer.sent += 1;
    viewer.socket.send(frame);
  }
}
