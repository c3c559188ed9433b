import { PayloadTooLargeError, ValidationError } from '../errors.js';
import type { ClientFrame } from '@miniqueue/sdk';
import { parseMessage, type FrameHandle } from './frames.js';

export interface IntakeDeps {
  /** Takes one of the credential's rate-limit tokens: 0, or the seconds until there is one. */
  takeToken(): number;
  maxMessageBytes: number;
  /** Whether the socket is still open: nothing is applied once it is closing. */
  open(): boolean;
  dispatch(frame: ClientFrame): void;
  /** A frame refused for what the client sent (it counts against the stream). */
  refuse(error: unknown, handle: FrameHandle): void;
  /** Reading waits for the rate limit now, or no longer. */
  changed(): void;
}

/**
 * What a stream reads: each WebSocket message, in order, under the credential's rate limit (each
 * message is one request; without a token the messages wait in a backlog, read in order once there
 * is one), parsed into frames and applied one by one. Nothing is applied once the socket is closing:
 * not the frames after the one that closed it in the same message, nor later messages, nor the
 * backlog.
 */
export class FrameIntake {
  private backlog: { data: Buffer; isBinary: boolean }[] = [];
  private rateWait: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly deps: IntakeDeps) {}

  /** Waiting for the rate limit: the socket is not read meanwhile. */
  get waiting(): boolean {
    return this.rateWait !== undefined;
  }

  received(data: Buffer, isBinary: boolean): void {
    if (!this.deps.open()) return;
    if (this.backlog.length > 0 || !this.tookToken()) {
      this.backlog.push({ data, isBinary });
      return;
    }
    this.handle(data, isBinary);
  }

  /** The socket is gone: what waits is dropped. */
  stop(): void {
    this.backlog = [];
    clearTimeout(this.rateWait);
    this.rateWait = undefined;
  }

  private tookToken(): boolean {
    const wait = this.deps.takeToken();
    if (wait === 0) return true;
    this.rateWait = setTimeout(() => this.readBacklog(), wait * 1000);
    this.deps.changed();
    return false;
  }

  private readBacklog(): void {
    this.rateWait = undefined;
    while (this.backlog.length > 0 && this.deps.open()) {
      const next = this.backlog.shift() as { data: Buffer; isBinary: boolean };
      this.handle(next.data, next.isBinary);
      if (this.backlog.length > 0 && !this.tookToken()) return;
    }
    if (!this.deps.open()) this.backlog = [];
    this.deps.changed();
  }

  private handle(data: Buffer, isBinary: boolean): void {
    const { deps } = this;
    if (isBinary) return deps.refuse(new ValidationError('Frames are JSON text, not binary', [{ field: 'message', message: 'must be text' }]), {});
    if (data.length > deps.maxMessageBytes) {
      return deps.refuse(new PayloadTooLargeError(`A message is at most ${deps.maxMessageBytes} bytes; this one is ${data.length}`), {});
    }
    const parsed = parseMessage(data.toString('utf8'));
    if ('error' in parsed) return deps.refuse(parsed.error, {});
    for (const one of parsed) {
      if (!deps.open()) return;
      if ('error' in one) deps.refuse(one.error, one.handle);
      else deps.dispatch(one.frame);
    }
  }
}
