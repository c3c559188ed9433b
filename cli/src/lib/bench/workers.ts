import type { Message, MiniQueue } from '@miniqueue/sdk';
import { makePayload, now, sentAtOf } from './payload.js';
import type { BenchStats } from './stats.js';

export interface ProducerSettings {
  topic: string;
  size: number;
  /** Messages per publish request; 1 uses the single-message route. */
  batch: number;
}

/**
 * Each request is sent once (no retries), so there is nothing for an idempotency key to protect,
 * and a key would make the broker store one row more per message: the bench measures publishing
 * as `npm run bench` does, without one.
 */
export const NO_KEY = { idempotencyKey: null };

/**
 * Publishes until `stop` aborts, one request in flight. The request under way when it does is
 * let finish: aborting it would only make the broker log a connection reset per worker.
 */
export async function producer(client: MiniQueue, settings: ProducerSettings, stats: BenchStats, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    try {
      if (settings.batch === 1) {
        const result = await client.publish(settings.topic, makePayload(settings.size, now()), NO_KEY);
        stats.published += 1;
        stats.stored += result.message_ids.length;
      } else {
        const batch = Array.from({ length: settings.batch }, () => ({ payload: makePayload(settings.size, now()), ...NO_KEY }));
        const result = await client.publishBatch(settings.topic, batch);
        stats.published += batch.length;
        for (const item of result.results) stats.stored += item.message_ids.length;
      }
    } catch (error) {
      stats.error(error);
    }
  }
}

export interface ConsumerSettings {
  queue: string;
  /** Messages per receive; 1 uses consume + single ack, as a simple consumer would. */
  batch: number;
  /** Long poll while the queue is empty; 0 with nothing left to produce: stop at the first empty answer. */
  waitSeconds: number;
}

/** Claims and acks until `stop` aborts (or, with waitSeconds 0, until the queue answers empty); the claim under way is finished and acked. */
export async function consumer(client: MiniQueue, settings: ConsumerSettings, stats: BenchStats, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    try {
      const messages = await claim(client, settings);
      if (messages.length === 0) {
        if (settings.waitSeconds === 0) return;
        continue;
      }
      const acked = await acknowledge(client, messages, stats);
      const at = now();
      for (const message of acked) {
        const sentAt = sentAtOf(message.payload);
        if (sentAt !== null) stats.latenciesMs.push(at - sentAt);
      }
      stats.acked += acked.length;
    } catch (error) {
      stats.error(error);
    }
  }
}

async function claim(client: MiniQueue, settings: ConsumerSettings): Promise<Message[]> {
  const options = { waitSeconds: settings.waitSeconds };
  if (settings.batch > 1) return client.receive(settings.queue, { ...options, maxMessages: settings.batch });
  const message = await client.consume(settings.queue, options);
  return message ? [message] : [];
}

async function acknowledge(client: MiniQueue, messages: Message[], stats: BenchStats): Promise<Message[]> {
  if (messages.length === 1) {
    await client.ack(messages[0].message_id);
    return messages;
  }
  const { acked, failed } = await client.ackMany(messages.map((m) => m.message_id));
  for (const failure of failed) stats.error({ status: failure.status });
  const done = new Set(acked);
  return messages.filter((m) => done.has(m.message_id));
}
