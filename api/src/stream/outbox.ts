import { WebSocket } from 'ws';

/** Bytes written to a stream that its socket has not taken yet, beyond which it counts as congested. */
export const MAX_QUEUED_BYTES = 1024 * 1024;

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
 */
export class Outbox {
  private pending: object[] = [];
  private scheduled = false;
  private queued = 0;
  /** The known sizes of the frames not yet flushed. */
  private pendingBytes = 0;
  private socket: WebSocket | undefined;

  constructor(private readonly drained: () => void) {}

  /** Sends to this socket from now on; undefined: nothing is sent (the stream is detached). */
  attach(socket: WebSocket | undefined): void {
    this.socket = socket;
    this.queued = 0;
    if (!socket) {
      this.pending = [];
      this.pendingBytes = 0;
    }
  }

  get congested(): boolean {
    return this.queued + this.pendingBytes + (this.socket?.bufferedAmount ?? 0) > MAX_QUEUED_BYTES;
  }

  /** `bytes`: about how large the frame is, when the sender knows. */
  send(frame: object, bytes = 0): void {
    if (!this.socket) return;
    this.pending.push(frame);
    this.pendingBytes += bytes;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    const socket = this.socket;
    const frames = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (!socket || socket.readyState !== WebSocket.OPEN || frames.length === 0) return;
    const text = JSON.stringify(frames.length === 1 ? frames[0] : frames);
    const bytes = text.length;
    this.queued += bytes;
    socket.send(text, () => {
      if (this.socket !== socket) return;
      const wasCongested = this.congested;
      this.queued -= bytes;
      if (wasCongested && !this.congested) this.drained();
    });
  }
}
