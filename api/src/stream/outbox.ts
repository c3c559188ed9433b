import { WebSocket } from 'ws';
import type { BrokerOutput } from './brokerOutput.js';

/** Bytes written to a stream that its socket has not taken yet, beyond which it counts as congested. */
export const MAX_QUEUED_BYTES = 1024 * 1024;
/**
 * What one claim may bring back at most: a quarter of the stream's cap, so that a few of its
 * subscriptions claim at once and no one claim fills the stream (a claim's rows are its payloads in
 * memory until they are written out).
 */
const MAX_CLAIM_BYTES = MAX_QUEUED_BYTES / 4;
/** About what a deliver frame adds to its payload (ids, times, headers): counted until its real size is known. */
const DELIVER_OVERHEAD_BYTES = 256;

/**
 * What the broker sends on one stream. Frames made in the same turn of the event loop (the confirms
 * of one group commit, the deliveries of one claim) leave as ONE WebSocket message, a JSON array:
 * each message is a socket write, and writes were a third of the broker's CPU per HTTP request.
 *
 * The bytes handed to the socket and not yet written out are counted here, from ws' write
 * callbacks, rather than read from `bufferedAmount` alone, which the kernel's buffers keep near
 * zero until they are full. Past MAX_QUEUED_BYTES the stream is congested: the session stops
 * reading the socket and claiming for it until it drains. Frames whose size the sender knows
 * (monitor events, serialized once for every viewer) count from the moment they are sent, so that
 * a burst in one turn stops at the cap too.
 *
 * Claims are bounded by the same count: a claim reserves the bytes it may bring back (at most what
 * the stream and the broker's total, brokerOutput.ts, may still take) before its statement, and
 * the claim statement stops taking rows there. So the cap holds for the stream as a whole, whatever
 * its number of subscriptions: it may be passed by one message per claim at most.
 */
export class Outbox {
  private pending: object[] = [];
  private scheduled = false;
  private queued = 0;
  /** The known sizes of the frames not yet flushed. */
  private pendingBytes = 0;
  /** What the claims under way may still bring back. */
  private reserved = 0;
  /** Payload bytes per message of the last claim: sizes the next reservation (small messages reserve little). */
  private typicalBytes = 1024;
  private socket: WebSocket | undefined;

  constructor(
    private readonly drained: () => void,
    private readonly broker: BrokerOutput,
  ) {}

  /** Sends to this socket from now on; undefined: nothing is sent (the stream is detached). */
  attach(socket: WebSocket | undefined): void {
    this.socket = socket;
    // What the last socket had not taken is gone with it (its write callbacks are ignored).
    this.change(() => (this.queued = 0));
    if (!socket) {
      this.pending = [];
      this.change(() => (this.pendingBytes = 0));
    }
  }

  get congested(): boolean {
    return this.queued + this.pendingBytes + (this.socket?.bufferedAmount ?? 0) > MAX_QUEUED_BYTES;
  }

  /** What the stream may still take: its cap less what is queued, unsent or may come back from claims under way. */
  private get room(): number {
    return MAX_QUEUED_BYTES - this.queued - this.pendingBytes - this.reserved - (this.socket?.bufferedAmount ?? 0);
  }

  /** Whether a claim may be made now: the stream and the broker have room. */
  get claimable(): boolean {
    return this.socket !== undefined && this.room > 0 && this.broker.room > 0;
  }

  /** `bytes`: about how large the frame is, when the sender knows. */
  send(frame: object, bytes = 0): void {
    if (!this.socket) return;
    this.pending.push(frame);
    if (bytes > 0) this.change(() => (this.pendingBytes += bytes));
    this.schedule();
  }

  /**
   * Reserves what a claim of up to `limit` messages may bring back (payload bytes), for its
   * statement to stop at; 0: no claim now. Every reservation is handed back with `claimed`.
   */
  reserveClaim(limit: number): number {
    const bytes = Math.floor(Math.min(this.room, this.broker.room, MAX_CLAIM_BYTES, 2 * limit * this.typicalBytes));
    if (!this.socket || bytes <= 0) return 0;
    this.change(() => (this.reserved += bytes));
    return bytes;
  }

  /**
   * A claim that reserved `reserved` is done: its `count` messages (`payloadLength` in all) count as
   * unsent from now on, as their deliveries are sent in this same turn.
   */
  claimed(reserved: number, count: number, payloadLength: number): void {
    const bytes = payloadLength + count * DELIVER_OVERHEAD_BYTES;
    if (count > 0) this.typicalBytes = Math.max(1, bytes / count);
    this.change(() => {
      this.reserved -= reserved;
      this.pendingBytes += bytes;
    });
    if (bytes > 0) this.schedule();
  }

  /** Writes what is pending now (before a close, which would drop it). */
  flushNow(): void {
    if (this.scheduled) this.flush();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const socket = this.socket;
    const frames = this.pending;
    this.pending = [];
    if (!socket || socket.readyState !== WebSocket.OPEN || frames.length === 0) return this.change(() => (this.pendingBytes = 0));
    const text = JSON.stringify(frames.length === 1 ? frames[0] : frames);
    const bytes = text.length;
    this.change(() => {
      this.pendingBytes = 0;
      this.queued += bytes;
    });
    socket.send(text, () => {
      if (this.socket !== socket) return;
      this.change(() => (this.queued -= bytes));
    });
  }

  /** Applies a change of the counts: the broker's total follows, and the session hears when the stream can take more again. */
  private change(apply: () => void): void {
    const before = this.queued + this.pendingBytes + this.reserved;
    const wasCongested = this.congested;
    const couldClaim = this.room > 0;
    apply();
    this.broker.add(this.queued + this.pendingBytes + this.reserved - before);
    if ((wasCongested && !this.congested) || (!couldClaim && this.room > 0)) this.drained();
  }
}
