import { LeaseLostError } from '../errors.js';
import type { Message } from '../generated/index.js';
import { isLoss } from './leases.js';

export interface HandlerLeaseOptions {
  message: Message;
  /** The handler's own extension (see Leases.extendNow). */
  extend: (seconds: number) => Promise<void>;
  /** Aborted when the consumer stops waiting for the handler. */
  stopped: AbortSignal;
}

/**
 * A running handler's view of its message's lease (which Leases keeps alive): its `signal` aborts
 * with LeaseLostError once the message is no longer the consumer's to settle (the broker refused an
 * extension, it was claimed again, or it was handed back at the maximum extension), and with the
 * consumer's reason when stop() gives up waiting.
 */
export class HandlerLease {
  private readonly controller = new AbortController();
  private readonly detach: () => void;

  constructor(private readonly options: HandlerLeaseOptions) {
    const onStopped = () => this.abort(options.stopped.reason);
    options.stopped.addEventListener('abort', onStopped, { once: true });
    this.detach = () => options.stopped.removeEventListener('abort', onStopped);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the message is no longer ours: an ack or nack would only be refused, or land on another claim. */
  get lost(): boolean {
    return this.controller.signal.reason instanceof LeaseLostError;
  }

  /** Extends now (the handler's own extend()); throws what the broker answered, and a refusal (409/404) loses the lease. */
  async extendNow(seconds: number): Promise<void> {
    try {
      await this.options.extend(seconds);
    } catch (error) {
      if (isLoss(error)) this.lose(error);
      throw error;
    }
  }

  /** The message is no longer this delivery's to settle: abort as a refused extension would. */
  lose(cause?: unknown): void {
    this.abort(new LeaseLostError(this.options.message.message_id, cause === undefined ? undefined : { cause }));
  }

  /** The handler finished. */
  stop(): void {
    this.detach();
  }

  private abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
