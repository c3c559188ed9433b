import type { WebSocket } from 'ws';

/** A probe unanswered this long: the consumer has stopped reading (or its link is this slow). */
export const PROBE_OVERDUE_MS = 2_000;
/** At most one probe per socket this often, and only while it is being sent notifications. */
export const PROBE_INTERVAL_MS = 1_000;

interface Probed {
  /** When the ping now in flight was sent; undefined when none is. */
  sentAt?: number;
  answeredAt: number;
}

/**
 * Whether a consumer socket is still reading, told by pings sent alongside its notifications. The
 * server's own send buffer cannot tell: the kernel's buffers on both sides take hundreds of
 * kilobytes of small frames before `bufferedAmount` grows, which is tens of seconds of a queue's
 * notifications. A peer that reads answers a ping with a pong as soon as it reads it (every
 * WebSocket client does so by itself, browsers included), so a ping sent after a notification and
 * unanswered for PROBE_OVERDUE_MS says that the notification has not been read either: the socket
 * is passed over until a pong comes. Any pong answers (pongs are not matched to pings), so the
 * heartbeat's pongs count too; that can only make the verdict one round later.
 */
export class ReadingProbe {
  private readonly probed = new WeakMap<WebSocket, Probed>();

  constructor(private readonly now: () => number = Date.now) {}

  watch(socket: WebSocket): void {
    const state: Probed = { answeredAt: this.now() };
    this.probed.set(socket, state);
    socket.on('pong', () => {
      state.sentAt = undefined;
      state.answeredAt = this.now();
    });
  }

  /** False once a probe has gone unanswered for PROBE_OVERDUE_MS. */
  reading(socket: WebSocket): boolean {
    const sentAt = this.probed.get(socket)?.sentAt;
    return sentAt === undefined || this.now() - sentAt < PROBE_OVERDUE_MS;
  }

  /** A notification went out on the socket: probe, unless a probe is in flight or one was answered just now. */
  sent(socket: WebSocket): void {
    const state = this.probed.get(socket);
    if (!state || state.sentAt !== undefined || this.now() - state.answeredAt < PROBE_INTERVAL_MS) return;
    state.sentAt = this.now();
    socket.ping();
  }
}
