import type { MiniQueue } from '@miniqueue/sdk';
import { now, sentAtOf } from './payload.js';
import type { BenchStats } from './stats.js';

export interface StreamConsumerSettings {
  queue: string;
  /** Unacked messages the broker pushes ahead to this consumer's subscription. */
  prefetch: number;
  /** No producers: done once every stored copy is acked; a warm-up (whose prefill is not counted) once nothing arrives for a moment. */
  drain: boolean;
}

/** In a drain, how long without a delivery means the queue is empty (there is no empty answer on a stream). */
const DRAIN_IDLE_MS = 300;

/**
 * One consumer over the client's stream, as a program using the SDK runs it: a subscription with
 * `prefetch`, one handler at a time, each message acked by frame when its handler returns (the
 * acks of a turn share a frame). Runs until `stop` aborts (or the drain is over); the messages
 * it holds then are still handled and acked.
 */
export async function streamConsumer(client: MiniQueue, settings: StreamConsumerSettings, stats: BenchStats, stop: AbortSignal): Promise<void> {
  let lastDelivery = Date.now();
  const consumer = client.consumer(settings.queue, () => void (lastDelivery = Date.now()), { concurrency: 1, prefetch: settings.prefetch });
  consumer.on('processed', ({ message }) => {
    const sentAt = sentAtOf(message.payload);
    if (sentAt !== null) stats.latenciesMs.push(now() - sentAt);
    stats.acked += 1;
  });
  consumer.on('error', (error) => stats.error(error));
  consumer.start();
  await new Promise<void>((resolve) => {
    if (stop.aborted) return resolve();
    stop.addEventListener('abort', () => resolve(), { once: true });
    if (!settings.drain) return;
    // Counted copies (a measured prefill) are drained when all are acked: a pause in deliveries
    // (a loaded machine) is not an empty queue. Only an uncounted warm-up prefill ends on a pause.
    const drained = () => (stats.stored > 0 ? stats.acked >= stats.stored : Date.now() - lastDelivery > DRAIN_IDLE_MS);
    const check = setInterval(() => drained() && (clearInterval(check), resolve()), 20);
    stop.addEventListener('abort', () => clearInterval(check), { once: true });
  });
  await consumer.stop();
}
