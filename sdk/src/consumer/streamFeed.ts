import type { Message } from '../generated/index.js';
import { backoffDelay, defaultRetryPolicy } from '../http/retryPolicy.js';
import type { StreamSubscription } from '../stream/subscription.js';
import type { ConsumerStream } from './types.js';

const MAX_SUBSCRIBE_BACKOFF_MS = 30_000;
const STOPPED: unique symbol = Symbol('stopped');

export interface StreamFeedOptions {
  stream: ConsumerStream;
  queue: string;
  prefetch: number;
  deliver(message: Message): void;
  /** A subscription refused or ended by the broker, or the stream down for now (reported as claim errors). */
  report(error: unknown): void;
  pause(ms: number): Promise<void>;
  isRunning(): boolean;
  stopRequested: Promise<void>;
}

/**
 * A consumer's messages pushed over the stream: one subscription with a prefetch window, made
 * again with backoff when the broker ends or refuses it, dropped at stop (deliveries already sent
 * are still the consumer's). Every ending is reported as a claim error; the consumer stops on
 * those retrying cannot mend (the queue deleted, a scope removed: see fatal.ts), which ends this
 * loop through `isRunning`. Reconnects are the stream's business.
 */
export class StreamFeed {
  constructor(private readonly options: StreamFeedOptions) {}

  /** Runs until stop; false as soon as streams turn out not to work here (poll over HTTP instead). */
  async run(): Promise<boolean> {
    const { options } = this;
    let failures = 0;
    while (options.isRunning()) {
      let ended: (outcome: { error: unknown; fallBack: boolean }) => void = () => undefined;
      const endedNow = new Promise<{ error: unknown; fallBack: boolean }>((resolve) => (ended = resolve));
      try {
        const subscribing = options.stream.subscribe(options.queue, options.prefetch, {
          deliver: options.deliver,
          interrupted: options.report,
          ended: (error, fallBack) => ended({ error, fallBack }),
        });
        const subscription = await this.unlessStopped(subscribing);
        if (subscription === STOPPED) {
          subscribing.then(
            (late) => late?.unsubscribe(),
            () => undefined,
          );
          return true;
        }
        if (!subscription) return false;
        failures = 0;
        const outcome = await this.unlessStopped(endedNow);
        if (outcome === STOPPED) return this.leave(subscription);
        if (outcome.fallBack) return false;
        options.report(outcome.error);
      } catch (error) {
        if (!options.isRunning()) return true;
        options.report(error);
      }
      failures++;
      await options.pause(backoffDelay({ ...defaultRetryPolicy, baseDelayMs: 500, maxDelayMs: MAX_SUBSCRIBE_BACKOFF_MS }, failures));
    }
    return true;
  }

  private unlessStopped<T>(promise: Promise<T>): Promise<T | typeof STOPPED> {
    return Promise.race([promise, this.options.stopRequested.then((): typeof STOPPED => STOPPED)]);
  }

  private async leave(subscription: StreamSubscription): Promise<true> {
    await subscription.unsubscribe();
    return true;
  }
}
