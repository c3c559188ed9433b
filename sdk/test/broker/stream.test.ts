import { describe, expect, it } from 'vitest';
import { startTestBroker } from '@miniqueue/api/testing';
import { MiniQueue, NotFoundError, UnauthorizedError, type ProcessedEvent } from '../../src/index.js';
import { countUpgrades as countUpgradesOf } from '../helpers/upgrades.js';
import { brokerForFile, startSdkBroker, until, type SdkBroker } from '../helpers/broker.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

let env: SdkBroker;
let admin: MiniQueue;
brokerForFile((started) => {
  env = started;
  admin = started.admin;
});

const countUpgrades = () => countUpgradesOf(env);

async function topicWithQueue(name: string) {
  await admin.topics.create(name);
  await admin.queues.create(name, name, { ackTimeoutSeconds: 30, maxRetries: 5 });
}

describe("transport 'http' and the fallback", () => {
  it("transport 'http' publishes without any WebSocket", async () => {
    await topicWithQueue('plain');
    const upgrades = countUpgrades();
    const client = await env.client('plain-producer', ['publish:plain'], { transport: 'http' });
    const result = await client.publish('plain', 'hello');
    expect(result.message_ids).toHaveLength(1);
    expect(upgrades.size).toBe(0);
    client.close();
  });

  it("a refused key is a refused key: the handshake's 401 is the typed error with the broker's code, and nothing falls back to HTTP", async () => {
    const warnings: string[] = [];
    const upgrades = countUpgrades();
    const client = new MiniQueue({ url: env.broker.url, apiKey: 'mq_wrong', logger: { warn: (message) => warnings.push(message) } });
    for (const payload of ['a', 'b']) {
      const refused = await client.publish('plain', payload).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UnauthorizedError);
      expect(refused).toMatchObject({ status: 401, code: 'unauthenticated' });
    }
    expect(warnings).toEqual([]);
    // Each call asked the stream (none went over HTTP instead).
    expect(upgrades.get('/ws/v1/stream')).toBe(2);
    client.close();
  });

  it('an unreachable broker is named in the error, without credentials, with the cause', async () => {
    const { createServer } = await import('node:net');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const warnings: string[] = [];
    const client = new MiniQueue({
      url: `http://127.0.0.1:${port}`,
      apiKey: 'mq_wrong',
      retry: { attempts: 2, baseDelayMs: 10 },
      logger: { warn: (message) => warnings.push(message) },
    });
    const failed = await client.publish('plain', 'a').catch((error: unknown) => error);
    expect((failed as Error).message).toBe(`Cannot reach the broker stream at ws://127.0.0.1:${port}/ws/v1/stream (ECONNREFUSED)`);
    expect((failed as Error).message).not.toContain('mq_wrong');
    expect(warnings).toEqual([]);
    client.close();
  });
});

describe('over the stream', () => {
  it('publishes with confirms carrying ids; 1,000 concurrent publishes are stored once each', async () => {
    await topicWithQueue('many');
    const upgrades = countUpgrades();
    const client = await env.client('many-producer', ['publish:many']);
    const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => client.publish('many', `m${i}`)));
    expect(new Set(results.map((result) => result.message_ids[0])).size).toBe(1000);
    expect(results.every((result) => result.queues.includes('many') && !result.duplicate)).toBe(true);
    expect(upgrades.get('/ws/v1/stream')).toBe(1);
    const counts = (await admin.dashboard.queues()).find((stats) => stats.queue === 'many')!;
    expect(counts.pending).toBe(1000);
    client.close();
  });

  it('a queue with overflow reject_copy refuses only its copy: the result names it, over the stream and over HTTP alike', async () => {
    await admin.topics.create('shared-topic');
    await admin.queues.create('shared-main', 'shared-topic');
    await admin.queues.create('shared-side', 'shared-topic', { maxMessages: 1, overflow: 'reject_copy' });
    const streamed = await env.client('shared-producer', ['publish:shared-topic']);
    const overHttp = await env.client('shared-http', ['publish:shared-topic'], { transport: 'http' });
    expect((await streamed.publish('shared-topic', 'first')).refused).toBeUndefined();
    for (const client of [streamed, overHttp]) {
      const result = await client.publish('shared-topic', 'more');
      expect(result.queues).toEqual(['shared-main']);
      expect(result.refused).toEqual([{ queue: 'shared-side', code: 'queue_full', message: expect.stringContaining('max_messages 1') }]);
    }
    streamed.close();
    overHttp.close();
  });

  it('a reject is the typed error HTTP would give', async () => {
    const client = await env.client('lost-producer', ['publish:*']);
    await expect(client.publish('no-such-topic', 'x')).rejects.toBeInstanceOf(NotFoundError);
    const elsewhere = await env.client('scoped-producer', ['publish:other']);
    await expect(elsewhere.publish('many', 'x')).rejects.toMatchObject({ status: 403, code: 'scope_required' });
    client.close();
    elsewhere.close();
  });

  it('the consumer acks and nacks over the stream as over HTTP', async () => {
    await topicWithQueue('work');
    const producer = await env.client('work-producer', ['publish:work']);
    for (let i = 0; i < 30; i++) await producer.publish('work', i % 3 === 0 ? `fail ${i}` : `ok ${i}`);
    const consumerClient = await env.client('work-consumer', ['consume:work']);
    const events: ProcessedEvent[] = [];
    const consumer = consumerClient.consumer(
      'work',
      (message) => {
        if (message.payload.startsWith('fail') && message.retry_count === 0) throw new Error('first try fails');
      },
      { concurrency: 4, nackDelay: 0 },
    );
    consumer.on('processed', (event) => events.push(event));
    consumer.on('error', () => undefined);
    consumer.start();
    await until(() => events.filter((event) => event.outcome === 'acked').length === 30, 30_000, '30 acks');
    await consumer.stop();
    expect(events.filter((event) => event.outcome === 'requeued')).toHaveLength(10);
    const counts = (await admin.dashboard.queues()).find((stats) => stats.queue === 'work')!;
    expect(counts).toMatchObject({ pending: 0, unacked: 0, acked: 30 });
    producer.close();
    consumerClient.close();
  });

  it('a publish refused while the database is unavailable (503, every connection busy) is sent again after retry_after_seconds, and stored once', async () => {
    // With every pooled connection taken, the broker's publish gives up after its wait: 503, retry after 1 s.
    const busy = await startSdkBroker({ MINIQUEUE_DB_POOL_SIZE: '2', MINIQUEUE_DB_CONNECTION_WAIT_SECONDS: '0.2' });
    const client = await busy.client('locked-producer', ['publish:locked']);
    try {
      await busy.admin.topics.create('locked');
      await busy.admin.queues.create('locked', 'locked');
      await client.publish('locked', 'warm-up');
      const taken = await Promise.all([busy.broker.pool.connect(), busy.broker.pool.connect()]);
      const started = Date.now();
      const unretried = client.publish('locked', 'one attempt', { retry: { attempts: 1 } });
      const retried = client.publish('locked', 'retried');
      await expect(unretried).rejects.toMatchObject({ status: 503, code: 'database_unavailable', retryAfterMs: 1000, attempts: 1 });
      taken.forEach((connection) => connection.release());
      await expect(retried).resolves.toMatchObject({ queues: ['locked'], duplicate: false });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      const payloads: string[] = [];
      for await (const message of busy.admin.queues.allMessages('locked')) payloads.push(message.payload);
      expect(payloads.sort()).toEqual(['retried', 'warm-up']);
    } finally {
      client.close();
      await busy.stop();
    }
  });

  it('a broker restarted mid-stream: the client reconnects and every unconfirmed publish is stored once', async () => {
    const first = await startTestBroker({ listen: true });
    const proxy = await startTcpProxy(first.url);
    let second: Awaited<ReturnType<typeof startTestBroker>> | undefined;
    try {
      const boss = new MiniQueue({ url: first.url, apiKey: first.adminKey, transport: 'http' });
      await boss.topics.create('survive');
      await boss.queues.create('survive', 'survive');
      const client = new MiniQueue({ url: proxy.url, apiKey: first.adminKey, retry: { attempts: 30, baseDelayMs: 50, maxDelayMs: 300 } });
      await client.publish('survive', 'warm-up');
      const pending = Array.from({ length: 200 }, (_, i) => client.publish('survive', `p${i}`));
      await first.stop();
      proxy.cut();
      second = await startTestBroker({ listen: true, databaseUrl: first.databaseUrl, adminKey: first.adminKey });
      proxy.retarget(second.url);
      const results = await Promise.all(pending);
      expect(results).toHaveLength(200);
      const listing = new MiniQueue({ url: second.url, apiKey: first.adminKey, transport: 'http' });
      const payloads: string[] = [];
      for await (const message of listing.queues.allMessages('survive')) payloads.push(message.payload);
      expect(payloads.filter((payload) => payload.startsWith('p')).sort()).toEqual(Array.from({ length: 200 }, (_, i) => `p${i}`).sort());
      client.close();
    } finally {
      await proxy.close();
      await second?.stop();
    }
  }, 120_000);
});
