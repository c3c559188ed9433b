import { MiniQueue, type ConsumerOptions } from '@miniqueue/sdk';
import type { Bound } from '../config.js';
import { runLoad, type LoadResult } from '../http.js';
import { paced } from './rabbitmq.js';
import { PAYLOAD } from './topology.js';

/**
 * What users run: the SDK (`@miniqueue/sdk`, as built in sdk/dist) from this process, with its
 * defaults unless a workload names an option. Read beside the raw protocol client's rows of the
 * same run (scenarios/stream.ts): the difference is the SDK's own cost.
 */

/** A client as a user makes one: a URL and a key, nothing else (the SDK warns on stderr). */
function client(baseUrl: string, key: string): MiniQueue {
  return new MiniQueue({ url: baseUrl, apiKey: key, logger: { warn: (line) => process.stderr.write(`  sdk: ${line}\n`) } });
}

/** `window` callers of `publish()` at once, each waiting for its own confirm before the next. */
export async function sdkPublish(
  baseUrl: string,
  key: string,
  topic: string,
  window: number,
  bound: Bound,
): Promise<LoadResult & { extra: Record<string, number> }> {
  const mq = client(baseUrl, key);
  try {
    const result = await runLoad({ concurrency: window, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
      await mq.publish(topic, PAYLOAD);
      return { messages: 1, requests: 1 };
    });
    return { ...result, extra: {} };
  } finally {
    mq.close();
  }
}

/**
 * One consumer (one process's client, so one stream) with `options` and a handler that does
 * nothing, until `bound.count` handlers resolved or time ran out. As the raw client counts acks
 * when sent, a message counts when its handler resolved (the SDK then acks it).
 */
export async function sdkConsume(
  baseUrl: string,
  key: string,
  queue: string,
  options: ConsumerOptions,
  bound: Bound,
): Promise<LoadResult & { extra: Record<string, number> }> {
  const mq = client(baseUrl, key);
  let handled = 0;
  let stop!: () => void;
  const done = new Promise<void>((resolve) => (stop = resolve));
  const started = process.hrtime.bigint();
  let finished = started;
  const consumer = mq.consumer(
    queue,
    async () => {
      handled += 1;
      finished = process.hrtime.bigint();
      if (handled >= bound.count) stop();
    },
    options,
  );
  let fatal: Error | undefined;
  consumer.on('fatal', (error) => {
    fatal = error;
    stop();
  });
  const timer = setTimeout(() => stop(), bound.seconds * 1000);
  try {
    consumer.start();
    await done;
    if (fatal) throw fatal;
    return { messages: handled, requests: handled, seconds: Number(finished - started) / 1e9, extra: {} };
  } finally {
    clearTimeout(timer);
    await consumer.stop();
    mq.close();
  }
}

/**
 * `publish()` → the consumer's handler at a steady `rate`: a publishing client and a consuming
 * client (each an SDK client of its own, as two services would be), the consumer with `options`.
 * Each message carries its number in a header; the time from calling `publish()` to its handler
 * starting is one sample. The first `warmupSeconds` are not counted.
 */
export async function sdkLatency(
  baseUrl: string,
  keys: { publish: string; consume: string },
  names: { topic: string; queue: string },
  options: ConsumerOptions,
  timing: { rate: number; seconds: number; warmupSeconds: number },
): Promise<LoadResult & { samples: number[]; extra: Record<string, number> }> {
  const publisher = client(baseUrl, keys.publish);
  const subscriber = client(baseUrl, keys.consume);
  const sentAt = new Map<string, number>();
  const samples: number[] = [];
  const consumer = subscriber.consumer(
    names.queue,
    async (message) => {
      const at = performance.now();
      const id = message.headers?.['bench-seq'];
      const sent = id === undefined ? undefined : sentAt.get(id);
      if (sent === undefined) return;
      samples.push(at - sent);
      sentAt.delete(id!);
    },
    options,
  );
  let fatal: Error | undefined;
  consumer.on('fatal', (error) => (fatal = error));
  try {
    consumer.start();
    // Opens the publisher's stream; the warm-up seconds cover the consumer's subscribing.
    await publisher.publish(names.topic, PAYLOAD);
    const started = process.hrtime.bigint();
    const confirms: Promise<unknown>[] = [];
    const published = await paced(timing.rate, timing.seconds + timing.warmupSeconds, (i, counted) => {
      const id = String(i);
      if (counted(timing.warmupSeconds)) sentAt.set(id, performance.now());
      confirms.push(publisher.publish(names.topic, PAYLOAD, { headers: { 'bench-seq': id } }));
    });
    await Promise.all(confirms);
    // A consumer slower than the rate (the defaults: one handler, prefetch 2) drains a backlog:
    // wait while it makes progress; its latencies say how far behind it fell.
    let lastProgress = performance.now();
    for (let seen = samples.length; sentAt.size > 0 && !fatal && performance.now() - lastProgress < 5_000;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (samples.length > seen) [seen, lastProgress] = [samples.length, performance.now()];
    }
    if (fatal) throw fatal;
    if (sentAt.size > 0) throw new Error(`${sentAt.size} of the measured messages never reached the handler`);
    return { messages: published, requests: published * 2, seconds: Number(process.hrtime.bigint() - started) / 1e9, samples, extra: {} };
  } finally {
    await consumer.stop();
    publisher.close();
    subscriber.close();
  }
}
