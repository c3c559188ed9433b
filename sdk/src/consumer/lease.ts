import { ConflictError, LeaseLostError, NotFoundError } from '../errors.js';
import type { Message } from '../generated/index.js';
import type { HeartbeatOptions } from './types.js';

export interface LeaseKeeperOptions {
  message: Message;
  heartbeat: HeartbeatOptions | false;
  extend: (seconds: number) => Promise<unknown>;
  /** A failed extension that did not lose the lease (network, 5xx after retries). */
  onError: (error: unknown) => void;
  /** Aborted when the consumer stops waiting for the handler. */
  stopped: AbortSignal;
}

/** The lease the broker granted: from the claim to `lease_expires_at`, in whole seconds. */
export function leaseSeconds(message: Message): number {
  const start = message.unacked_at?.getTime();
  const end = message.lease_expires_at?.getTime();
  if (start === undefined || end === undefined) return 30;
  return Math.max(1, Math.round((end - start) / 1000));
}

/**
 * Keeps one message's lease alive while its handler runs: extends it every half lease (by one
 * lease), so a slow handler is not redelivered. A 409/404 on extension means the lease is gone
 * (redelivered, taken, purged); `signal` then aborts with LeaseLostError.
 */
export class LeaseKeeper {
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> = Promise.resolve();
  private stoppedKeeping = false;
  private readonly intervalMs: number;
  private readonly extendSeconds: number;
  private readonly detach: () => void;

  constructor(private readonly options: LeaseKeeperOptions) {
    const lease = leaseSeconds(options.message);
    const heartbeat = options.heartbeat || {};
    this.extendSeconds = heartbeat.extendSeconds ?? lease;
    this.intervalMs = heartbeat.intervalMs ?? (lease * 1000) / 2;
    const onStopped = () => this.abort(options.stopped.reason);
    options.stopped.addEventListener('abort', onStopped, { once: true });
    this.detach = () => options.stopped.removeEventListener('abort', onStopped);
    if (options.heartbeat !== false) this.schedule();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once the broker said the message is no longer ours. */
  get lost(): boolean {
    return this.controller.signal.reason instanceof LeaseLostError;
  }

  /** Extends now (the handler's own extend()); throws what the broker answered. */
  async extendNow(seconds: number): Promise<void> {
    try {
      await this.options.extend(seconds);
    } catch (error) {
      this.noteLoss(error);
      throw error;
    }
  }

  /**
   * The message was claimed again (its lease ran out, or a closed stream released it), so this
   * delivery is no longer the one the broker counts as ours: abort as a refused extension would.
   */
  lose(): void {
    this.abort(new LeaseLostError(this.options.message.message_id));
  }

  /** Stops extending and waits for an extension in flight, so it cannot land after the ack. */
  async stop(): Promise<void> {
    this.stoppedKeeping = true;
    clearTimeout(this.timer);
    this.detach();
    await this.inFlight;
  }

  private schedule(): void {
    if (this.stoppedKeeping) return;
    this.timer = setTimeout(() => {
      this.inFlight = this.beat();
    }, this.intervalMs);
  }

  private async beat(): Promise<void> {
    try {
      await this.options.extend(this.extendSeconds);
    } catch (error) {
      this.noteLoss(error);
      this.options.onError(this.lost ? this.signal.reason : error);
    }
    if (!this.signal.aborted) this.schedule();
  }

  private noteLoss(error: unknown): boolean {
    if (!(error instanceof ConflictError || error instanceof NotFoundError)) return false;
    this.abort(new LeaseLostError(this.options.message.message_id, { cause: error }));
    return true;
  }

  private abort(reason: unknown): void {
    clearTimeout(this.timer);
    this.stoppedKeeping = true;
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
