import type { PublishResult } from '../generated/index.js';
import { errorFromBody } from '../http/responseError.js';
import type { BrokerFrame, PublishFrame } from './frames.js';

export type PublishFields = Omit<PublishFrame, 'type' | 'seq'>;

interface Unconfirmed {
  frame: PublishFrame;
  resolve(result: PublishResult): void;
  reject(error: unknown): void;
}

/**
 * The bookkeeping of publisher confirms: every publish gets the next `seq` and stays unconfirmed
 * until the broker's `confirm` or `reject` of that `seq`, in whatever order they come. After a
 * reconnect, `resend` sends every unconfirmed frame again with its same `seq` (and idempotency
 * key), oldest first: a resumed stream confirms what it already committed without storing it
 * again, and a new stream deduplicates by the key.
 */
export class Publisher {
  private nextSeq = 1;
  // Insertion order is seq order: a resend keeps the sequence increasing.
  private readonly unconfirmed = new Map<number, Unconfirmed>();

  constructor(private readonly send: (frame: PublishFrame) => void) {}

  /** Publishes still waiting for their confirm. */
  get size(): number {
    return this.unconfirmed.size;
  }

  publish(fields: PublishFields, signal?: AbortSignal): Promise<PublishResult> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const frame: PublishFrame = { type: 'publish', seq: this.nextSeq++, ...fields };
    return new Promise<PublishResult>((resolve, reject) => {
      const onAbort = () => this.settle(frame.seq)?.reject(signal?.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const detach = () => signal?.removeEventListener('abort', onAbort);
      this.unconfirmed.set(frame.seq, {
        frame,
        resolve: (result) => (detach(), resolve(result)),
        reject: (error) => (detach(), reject(error)),
      });
      this.send(frame);
    });
  }

  /** Handles `confirm`, `reject` and an `error` naming a `seq`; false for any other frame. */
  answer(frame: BrokerFrame): boolean {
    if (frame.type === 'confirm') {
      this.settle(frame.seq)?.resolve({ message_ids: frame.message_ids, queues: frame.queues, duplicate: frame.duplicate });
      return true;
    }
    if ((frame.type === 'reject' || frame.type === 'error') && typeof frame.seq === 'number') {
      this.settle(frame.seq)?.reject(errorFromBody(frame.status, frame));
      return true;
    }
    return false;
  }

  resend(): void {
    for (const { frame } of this.unconfirmed.values()) this.send(frame);
  }

  /** Ends every unconfirmed publish with this error. */
  failAll(error: unknown): void {
    for (const seq of [...this.unconfirmed.keys()]) this.settle(seq)?.reject(error);
  }

  /**
   * Takes every unconfirmed publish off the stream, for another way to deliver (HTTP): each
   * comes with the resolve and reject of its caller's promise.
   */
  takeAll(): Array<{ fields: PublishFields; resolve(result: PublishResult): void; reject(error: unknown): void }> {
    const taken = [...this.unconfirmed.values()];
    this.unconfirmed.clear();
    return taken.map(({ frame: { type: _type, seq: _seq, ...fields }, resolve, reject }) => ({ fields, resolve, reject }));
  }

  private settle(seq: number): Unconfirmed | undefined {
    const entry = this.unconfirmed.get(seq);
    this.unconfirmed.delete(seq);
    return entry;
  }
}
