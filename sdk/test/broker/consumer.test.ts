import { describe, expect, it } from 'vitest';
import { ConnectionError, DeadLetterError, LeaseLostError, MiniQueue, type ErrorContext, type ProcessedEvent } from '../../src/index.js';
import { brokerForFile, sleep, until, type SdkBroker } from '../helpers/broker.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

let env: SdkBroker;
let admin: MiniQueue;
brokerForFile((started) => {
  env = started;
  admin = started.admin;
});

/** A topic with one queue, a publisher for it and a consumer client of it. */
async function setUp(name: string, queue: { ackTimeoutSeconds?: number; maxRetries?: number } = {}) {
  await admin.topics.create(name);
  await admin.queues.create(name, name, queue);
  const producer = await env.client(`${name}-producer`, [`publish:${name}`]);
  const consumerClient = await env.client(`${name}-consumer`, [`consume:${name}`], { retry: { baseDelayMs: 20 } });
  return { producer, consumerClient };
}

async function publishMany(producer: MiniQueue, topic: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({ payload: `message ${start + i}` }));
    const result = await producer.publishBatch(topic, batch);
    ids.push(...result.results.map((r) => r.message_ids[0]));
  }
  return ids;
}

async function countsOf(queue: string) {
  const stats = await admin.dashboard.queues();
  return stats.find((s) => s.queue === queue)!;
}

/** Runs a consumer until it settles its first message, then stops it; returns the outcomes seen. */
async function outcomesUntilFirst(consumer: ReturnType<MiniQueue['consumer']>): Promise<string[]> {
  const outcomes: string[] = [];
  consumer.on('processed', (event) => outcomes.push(event.outcome));
  consumer.on('error', () => undefined);
  consumer.start();
  await until(() => outcomes.length === 1, 10_000, 'outcome');
  await consumer.stop();
  return outcomes;
}

describe('consumer', () => {
  it('handles and acks 1,000 messages with concurrency 8, each exactly once', async () => {
    const { producer, consumerClient } = await setUp('bulk');
    const ids = await publishMany(producer, 'bulk', 1000);
    const handled: string[] = [];
    const acked: string[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const errors: unknown[] = [];
    const consumer = consumerClient.consumer(
      'bulk',
      async (message) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await sleep(Math.random() * 4);
        handled.push(message.message_id);
        running--;
      },
      { concurrency: 8, waitSeconds: 1 },
    );
    consumer.on('processed', (event) => event.outcome === 'acked' && acked.push(event.message.message_id));
    consumer.on('error', (error) => errors.push(error));
    consumer.start();
    await until(() => acked.length === 1000, 170_000, '1000 acks');
    await consumer.stop();

    expect(errors).toEqual([]);
    expect(handled).toHaveLength(1000);
    expect(new Set(handled)).toEqual(new Set(ids));
    expect(new Set(acked).size).toBe(1000);
    expect(mostAtOnce).toBeLessThanOrEqual(8);
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(await countsOf('bulk')).toMatchObject({ pending: 0, unacked: 0, acked: 1000, dead: 0 });
  }, 180_000); // about 10 s alone; far more on a machine busy with other suites

  it('redelivers a failing message and dead-letters it after max_retries', async () => {
    const { producer, consumerClient } = await setUp('flaky', { maxRetries: 2 });
    const [id] = (await producer.publish('flaky', 'always fails')).message_ids;
    const attempts: number[] = [];
    const outcomes: ProcessedEvent[] = [];
    const phases: string[] = [];
    const consumer = consumerClient.consumer(
      'flaky',
      (message) => {
        attempts.push(message.retry_count);
        throw new Error('downstream is down');
      },
      { nackDelay: 0, waitSeconds: 1 },
    );
    consumer.on('processed', (event) => outcomes.push(event));
    consumer.on('error', (_error, context: ErrorContext) => phases.push(context.phase));
    consumer.start();
    await until(() => outcomes.some((o) => o.outcome === 'dead'), 20_000, 'dead letter');
    await consumer.stop();

    expect(attempts).toEqual([0, 1, 2]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['requeued', 'requeued', 'dead']);
    expect((outcomes[0].error as Error).message).toBe('downstream is down');
    expect(phases).toEqual(['handler', 'handler', 'handler']);
    const dead = await admin.dlq.list({ queue: 'flaky' });
    expect(dead.items).toEqual([expect.objectContaining({ message_id: id, status: 'DEAD', retry_count: 2 })]);
  });

  it("nacks with the handler's error message, which the dead letter shows", async () => {
    const { producer, consumerClient } = await setUp('says-why', { maxRetries: 0 });
    const [id] = (await producer.publish('says-why', 'fails once')).message_ids;
    const consumer = consumerClient.consumer(
      'says-why',
      () => {
        throw new Error('boom');
      },
      { nackDelay: 0, waitSeconds: 1 },
    );
    expect(await outcomesUntilFirst(consumer)).toEqual(['dead']);
    const dead = await admin.getMessage(id);
    expect(dead.status).toBe('DEAD');
    expect(dead.dead_detail).toContain('boom');
  });

  it('waits nackDelay before a retry', async () => {
    const { producer, consumerClient } = await setUp('delayed');
    await producer.publish('delayed', 'retry me later');
    const seen: number[] = [];
    const consumer = consumerClient.consumer(
      'delayed',
      () => {
        seen.push(Date.now());
        if (seen.length === 1) throw new Error('not yet');
      },
      { nackDelay: () => 2, waitSeconds: 1 },
    );
    consumer.on('error', () => undefined);
    consumer.start();
    await until(() => seen.length === 2, 15_000, 'second delivery');
    await consumer.stop();
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(1500);
  });

  it('sends a message to the DLQ at once when the handler throws DeadLetterError', async () => {
    const { producer, consumerClient } = await setUp('poison', { maxRetries: 5 });
    await producer.publish('poison', 'not json');
    let calls = 0;
    const consumer = consumerClient.consumer('poison', () => {
      calls++;
      throw new DeadLetterError('payload is not JSON');
    });
    expect(await outcomesUntilFirst(consumer)).toEqual(['dead']);
    expect(calls).toBe(1);
    expect(await countsOf('poison')).toMatchObject({ dead: 1, pending: 0 });
  });

  it('keeps a slow handler’s lease alive with heartbeats', async () => {
    // A 3 s lease: beats every 1.5 s, each extending to 3 s from then, for a 7 s handler.
    const { producer, consumerClient } = await setUp('slow', { ackTimeoutSeconds: 3 });
    const [id] = (await producer.publish('slow', 'takes 7 seconds')).message_ids;
    const retryCounts: number[] = [];
    let finished = false;
    const consumer = consumerClient.consumer('slow', async (message) => {
      retryCounts.push(message.retry_count);
      await sleep(7000);
      finished = true;
    });
    consumer.on('error', (error) => retryCounts.push(-1) && console.error(error));
    consumer.start();
    await until(() => retryCounts.length === 1, 10_000, 'claim');
    let expired = 0;
    while (!finished) {
      await sleep(250);
      expired += await env.sweep(); // what production's sweeper would do meanwhile
    }
    await consumer.stop();
    expect(expired).toBe(0);
    expect(retryCounts).toEqual([0]);
    const [message] = (await admin.queues.messages('slow')).items;
    expect(message).toMatchObject({ message_id: id, status: 'ACKED', retry_count: 0 });
  });

  it('loses a slow handler’s lease without heartbeats, and tells the handler', async () => {
    const { producer, consumerClient } = await setUp('unguarded', { ackTimeoutSeconds: 1 });
    await producer.publish('unguarded', 'takes too long');
    const deliveries: number[] = [];
    const reasons: unknown[] = [];
    const phases: string[] = [];
    const consumer = consumerClient.consumer(
      'unguarded',
      async (message, { signal, extend }) => {
        deliveries.push(message.retry_count);
        if (message.retry_count > 0) return;
        await sleep(1500);
        await env.sweep(); // the lease ran out: redelivered
        await extend(30).catch(() => undefined);
        reasons.push(signal.reason);
      },
      { heartbeat: false, nackDelay: 0, waitSeconds: 1 },
    );
    consumer.on('error', (_error, context) => phases.push(context.phase));
    consumer.start();
    await until(() => deliveries.length === 2, 15_000, 'redelivery');
    await until(async () => (await countsOf('unguarded')).acked === 1, 10_000, 'ack of the redelivery');
    await consumer.stop();
    expect(deliveries).toEqual([0, 1]);
    expect(reasons[0]).toBeInstanceOf(LeaseLostError);
    // The stale first delivery is neither acked nor nacked: the broker no longer counts it as ours.
    expect(phases).toEqual([]);
  });

  it('over the stream, a message claimed again while its first handler runs: that handler loses its lease, the new claim is acked', async () => {
    // The subscription has room (prefetch 2), so the broker claims the message again for the same
    // holder at once: only the claim tells the old delivery from the new one.
    const { producer, consumerClient } = await setUp('reclaimed', { ackTimeoutSeconds: 1 });
    await producer.publish('reclaimed', 'takes too long');
    const deliveries: number[] = [];
    const reasons: unknown[] = [];
    const phases: string[] = [];
    const consumer = consumerClient.consumer(
      'reclaimed',
      async (message, { signal }) => {
        deliveries.push(message.retry_count);
        if (message.retry_count > 0) return;
        await sleep(1500);
        await env.sweep();
        await until(async () => (await countsOf('reclaimed')).unacked === 1, 10_000, 'the claim again');
        await until(() => signal.aborted, 5000, 'the lost lease');
        reasons.push(signal.reason);
      },
      { heartbeat: false, prefetch: 2 },
    );
    consumer.on('error', (_error, context) => phases.push(context.phase));
    consumer.start();
    await until(() => deliveries.length === 2, 15_000, 'redelivery');
    await until(async () => (await countsOf('reclaimed')).acked === 1, 10_000, 'ack of the redelivery');
    await consumer.stop();
    expect(deliveries).toEqual([0, 1]);
    expect(reasons[0]).toBeInstanceOf(LeaseLostError);
    expect(phases).toEqual([]);
    expect(await countsOf('reclaimed')).toMatchObject({ acked: 1, pending: 0, unacked: 0 });
  });

  it('stop() lets running handlers finish and loses nothing: the rest is redelivered', async () => {
    const { producer, consumerClient } = await setUp('interrupted', { ackTimeoutSeconds: 1 });
    const ids = await publishMany(producer, 'interrupted', 200);
    const firstRun: string[] = [];
    const first = consumerClient.consumer(
      'interrupted',
      async (message) => {
        await sleep(20);
        firstRun.push(message.message_id);
      },
      { concurrency: 4, batchSize: 4, waitSeconds: 1 },
    );
    const acked = new Set<string>();
    first.on('processed', (event) => acked.add(event.message.message_id));
    first.start();
    await until(() => firstRun.length >= 40, 20_000, '40 messages');
    await first.stop();

    expect(first.active).toBe(0);
    // Everything the first consumer handled was acked before stop() returned.
    expect(acked).toEqual(new Set(firstRun));
    const afterStop = await countsOf('interrupted');
    expect(afterStop.acked).toBe(firstRun.length);
    expect(afterStop.acked + afterStop.pending + afterStop.unacked).toBe(200);
    expect(firstRun.length).toBeLessThan(200);

    // Whatever was claimed but not started comes back once its lease runs out.
    await sleep(1100);
    await env.sweep();
    const secondRun: string[] = [];
    const second = consumerClient.consumer('interrupted', (message) => void secondRun.push(message.message_id), { concurrency: 4, waitSeconds: 1 });
    second.start();
    await until(() => firstRun.length + secondRun.length >= 200, 20_000, 'the rest');
    await second.stop();
    expect(new Set([...firstRun, ...secondRun])).toEqual(new Set(ids));
    expect(await countsOf('interrupted')).toMatchObject({ acked: 200, pending: 0, unacked: 0 });
  });

  it('stop() during a long poll claims nothing for nobody: the next message waits, untouched, for the next consumer', async () => {
    const { producer, consumerClient } = await setUp('rolling', { maxRetries: 0 });
    const handled: string[] = [];
    const first = consumerClient.consumer('rolling', (message) => void handled.push(message.message_id), { waitSeconds: 20 });
    first.start();
    await sleep(300);
    await first.stop();
    await sleep(100);
    const [id] = (await producer.publish('rolling', 'after the deploy')).message_ids;
    await sleep(200);
    expect(handled).toEqual([]);
    expect(await countsOf('rolling')).toMatchObject({ pending: 1, unacked: 0, dead: 0 });
    const next = await consumerClient.consume('rolling');
    expect(next).toMatchObject({ message_id: id, retry_count: 0 });
  });

  it('stop() gives up on a handler that outlives stopTimeoutMs and aborts its signal', async () => {
    const { producer, consumerClient } = await setUp('stuck', { ackTimeoutSeconds: 5 });
    await producer.publish('stuck', 'never finishes in time');
    let signal: AbortSignal | undefined;
    const consumer = consumerClient.consumer(
      'stuck',
      async (_message, context) => {
        signal = context.signal;
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        throw context.signal.reason;
      },
      { stopTimeoutMs: 300 },
    );
    consumer.on('error', () => undefined);
    consumer.start();
    await until(() => signal !== undefined, 10_000, 'claim');
    const started = Date.now();
    await consumer.stop();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(signal!.aborted).toBe(true);
  });

  it('over HTTP, reports transient claim failures as events and keeps going', async () => {
    const { producer } = await setUp('bumpy');
    const key = (await admin.clients.create('bumpy-flaky', ['consume:bumpy'])).api_key;
    let failuresLeft = 3;
    const flaky = new MiniQueue({
      url: env.broker.url,
      apiKey: key,
      transport: 'http', // the failures are those of claim requests
      retry: { attempts: 1 },
      fetch: (input, init) => {
        if (String(input).includes('/receive') && failuresLeft-- > 0) return Promise.reject(new TypeError('fetch failed'));
        return fetch(input, init);
      },
    });
    await producer.publish('bumpy', 'eventually');
    const phases: string[] = [];
    const payloads: string[] = [];
    const consumer = flaky.consumer('bumpy', (message) => void payloads.push(message.payload), { waitSeconds: 1 });
    consumer.on('error', (_error, context) => phases.push(context.phase));
    consumer.start();
    await until(() => payloads.length === 1, 20_000, 'delivery after failures');
    await consumer.stop();
    expect(phases).toEqual(['claim', 'claim', 'claim']);
    expect(payloads).toEqual(['eventually']);
  });

  it('over the stream, reports a lost stream as claim errors, then delivers once it is back', async () => {
    const { producer } = await setUp('choppy');
    const key = (await admin.clients.create('choppy-proxied', ['consume:choppy'])).api_key;
    const proxy = await startTcpProxy(env.broker.url);
    const client = new MiniQueue({ url: proxy.url, apiKey: key, retry: { baseDelayMs: 20, maxDelayMs: 50 } });
    const errors: Array<{ error: unknown; phase: string }> = [];
    const payloads: string[] = [];
    const consumer = client.consumer('choppy', (message) => void payloads.push(message.payload));
    consumer.on('error', (error, context) => errors.push({ error, phase: context.phase }));
    try {
      consumer.start();
      await producer.publish('choppy', 'before');
      await until(() => payloads.length === 1, 10_000, 'the first delivery');
      // Its ack goes out after the handler returns: cut only once it is in, or the cut fails the ack too.
      await until(async () => (await admin.queues.messages('choppy', { status: 'UNACKED' })).items.length === 0, 10_000, 'the first ack');
      proxy.refuse(true);
      proxy.cut();
      await until(() => errors.length >= 3, 10_000, 'three failed attempts');
      proxy.refuse(false);
      await producer.publish('choppy', 'after');
      await until(() => payloads.length === 2, 20_000, 'a delivery once the stream is back');
      await consumer.stop();
      expect(payloads).toEqual(['before', 'after']);
      expect(new Set(errors.map((error) => error.phase))).toEqual(new Set(['claim']));
      expect(errors.every(({ error }) => error instanceof ConnectionError)).toBe(true);
    } finally {
      client.close();
      await proxy.close();
    }
  });
});
