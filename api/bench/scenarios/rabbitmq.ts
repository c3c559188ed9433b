import * as amqp from 'amqplib';
import type { Bound } from '../config.js';
import { runLoad, type LoadResult } from '../http.js';
import { PAYLOAD } from './topology.js';

/**
 * RabbitMQ's side of each stream workload, with amqplib, configured as a durable broker is:
 * durable queues, persistent messages (delivery mode 2), publisher confirms, manual acks with a
 * prefetch (`basic.qos`, per consumer). The body is the same ~200-byte JSON as MiniQueue's.
 */
const BODY = Buffer.from(PAYLOAD);
const PERSISTENT = { persistent: true, contentType: 'application/json' } as const;

export class RabbitBench {
  private constructor(
    private readonly url: string,
    private readonly admin: amqp.ChannelModel,
    private readonly channel: amqp.Channel,
  ) {}

  static async open(url: string): Promise<RabbitBench> {
    const admin = await amqp.connect(url);
    const channel = await admin.createChannel();
    return new RabbitBench(url, admin, channel);
  }

  async queue(name: string): Promise<void> {
    await this.channel.assertQueue(name, { durable: true });
    await this.channel.purgeQueue(name);
  }

  /** A durable fanout exchange and `queues` durable queues bound to it. */
  async fanout(exchange: string, queues: string[]): Promise<void> {
    await this.channel.assertExchange(exchange, 'fanout', { durable: true });
    for (const queue of queues) {
      await this.queue(queue);
      await this.channel.bindQueue(queue, exchange, '');
    }
  }

  async purge(queue: string): Promise<void> {
    await this.channel.purgeQueue(queue);
  }

  /**
   * One connection, one confirm channel, `window` persistent publishes unconfirmed at a time (each
   * of `window` loops waits for its own confirm before the next publish). To an exchange when
   * `exchange` is set (fan-out), else to the queue through the default exchange.
   */
  async publish(target: { queue?: string; exchange?: string }, window: number, bound: Bound): Promise<LoadResult> {
    const connection = await amqp.connect(this.url);
    try {
      const channel = await connection.createConfirmChannel();
      const result = await runLoad(
        { concurrency: window, maxSteps: bound.count, maxSeconds: bound.seconds },
        () =>
          new Promise((resolve, reject) => {
            const done = (error: unknown) =>
              error ? reject(error instanceof Error ? error : new Error(`nacked: ${String(error)}`)) : resolve({ messages: 1, requests: 1 });
            if (target.exchange) channel.publish(target.exchange, '', BODY, PERSISTENT, done);
            else channel.sendToQueue(target.queue!, BODY, PERSISTENT, done);
          }),
      );
      await channel.close();
      return result;
    } finally {
      await connection.close();
    }
  }

  /** Puts `count` persistent messages on a queue, 1,000 unconfirmed at a time. */
  async seed(queue: string, count: number): Promise<void> {
    await this.publish({ queue }, 1_000, { count, seconds: 3_600 });
  }

  /**
   * `consumers` connections, each one channel with one consumer of `prefetch`, acking every
   * delivery at once, one `basic.ack` each, until `bound.count` were acked or time ran out.
   * A `basic.ack` has no answer: acks are counted when sent (the prefetch window bounds how many
   * the broker has not yet applied).
   */
  async consume(queue: string, consumers: number, prefetch: number, bound: Bound): Promise<LoadResult> {
    const connections = await Promise.all(Array.from({ length: consumers }, () => amqp.connect(this.url)));
    try {
      const channels = await Promise.all(connections.map((connection) => connection.createChannel()));
      for (const channel of channels) await channel.prefetch(prefetch);
      let acked = 0;
      const started = process.hrtime.bigint();
      let finished = started;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, bound.seconds * 1000);
        const stop = () => {
          clearTimeout(timer);
          resolve();
        };
        for (const channel of channels) {
          channel.on('error', reject);
          void channel
            .consume(
              queue,
              (message) => {
                if (!message || acked >= bound.count) return;
                channel.ack(message);
                acked += 1;
                finished = process.hrtime.bigint();
                if (acked >= bound.count) stop();
              },
              { noAck: false },
            )
            .catch(reject);
        }
      });
      const seconds = Number(finished - started) / 1e9;
      for (const channel of channels) await channel.close().catch(() => undefined);
      return { messages: acked, requests: acked, seconds };
    } finally {
      await Promise.all(connections.map((connection) => connection.close().catch(() => undefined)));
    }
  }

  /**
   * publish → delivery latency at a steady `rate` per second for `seconds`: a consumer
   * (prefetch 100, acking each) on one connection, a confirm channel publishing on another; each
   * message's id says when it was sent. The first `warmupSeconds` are not counted.
   */
  async latency(queue: string, rate: number, seconds: number, warmupSeconds: number): Promise<{ samples: number[]; published: number }> {
    const consumerConnection = await amqp.connect(this.url);
    const publisherConnection = await amqp.connect(this.url);
    try {
      const consumer = await consumerConnection.createChannel();
      await consumer.prefetch(100);
      const sentAt = new Map<string, number>();
      const samples: number[] = [];
      await consumer.consume(
        queue,
        (message) => {
          if (!message) return;
          const at = performance.now();
          const id = message.properties.messageId as string;
          const sent = sentAt.get(id);
          if (sent !== undefined) {
            samples.push(at - sent);
            sentAt.delete(id);
          }
          consumer.ack(message);
        },
        { noAck: false },
      );
      const publisher = await publisherConnection.createConfirmChannel();
      const published = await paced(rate, seconds + warmupSeconds, (i, counted) => {
        const id = String(i);
        if (counted(warmupSeconds)) sentAt.set(id, performance.now());
        publisher.sendToQueue(queue, BODY, { ...PERSISTENT, messageId: id });
      });
      await publisher.waitForConfirms();
      // Give the last deliveries a moment to arrive.
      for (let i = 0; i < 100 && sentAt.size > 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      await consumer.close();
      return { samples, published };
    } finally {
      await consumerConnection.close().catch(() => undefined);
      await publisherConnection.close().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await this.channel.close().catch(() => undefined);
    await this.admin.close().catch(() => undefined);
  }
}

/**
 * Calls `send(i)` `rate` times a second for `seconds`, on a wall-clock schedule (each tick sends
 * whatever is due, so a late timer never lowers the rate). `counted(w)` says whether this send
 * falls after the first `w` seconds. Returns how many were sent.
 */
export async function paced(rate: number, seconds: number, send: (i: number, counted: (warmupSeconds: number) => boolean) => void): Promise<number> {
  const started = performance.now();
  let sent = 0;
  const total = Math.round(rate * seconds);
  while (sent < total) {
    const elapsed = (performance.now() - started) / 1000;
    const due = Math.min(total, Math.floor(elapsed * rate) + 1);
    while (sent < due) {
      const i = sent;
      send(i, (warmupSeconds) => i >= warmupSeconds * rate);
      sent += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return sent;
}
