import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBroker, startTestBroker, type BrokerProcess, type TestBroker } from '@miniqueue/api/testing';
import { MiniQueue, type Consumer, type ErrorContext } from '../../src/index.js';
import { until } from '../helpers/broker.js';

const TOPIC = 'failover';
const STREAM_QUEUE = 'failover-stream';
const HTTP_QUEUE = 'failover-http';
const PUBLISHES = 400;
const KILL_AFTER = 120;

/** A consumer that acks every message, keeping which payloads it acked and what went wrong settling them. */
function ackingConsumer(client: MiniQueue, queue: string) {
  const acked = new Set<string>();
  const settleErrors: string[] = [];
  const consumer: Consumer = client.consumer(queue, () => undefined, { concurrency: 8, waitSeconds: 2 });
  consumer.on('processed', (event) => event.outcome === 'acked' && acked.add(event.message.payload));
  consumer.on('error', (error: unknown, context: ErrorContext) => {
    if (context.phase !== 'claim') settleErrors.push(`${context.phase}: ${String(error)}`);
  });
  return { consumer: consumer.start(), acked, settleErrors };
}

describe('a client given two broker URLs when the first broker is killed for good', () => {
  // The in-process broker only owns the database; the two broker processes share it.
  let db: TestBroker;
  const brokers: BrokerProcess[] = [];

  beforeAll(async () => {
    db = await startTestBroker();
    for (let i = 0; i < 2; i++) {
      brokers.push(await spawnBroker({ DATABASE_URL: db.databaseUrl, MINIQUEUE_BOOTSTRAP_ADMIN_KEY: db.adminKey, MINIQUEUE_SWEEP_INTERVAL_SECONDS: '1' }));
    }
  });
  afterAll(async () => {
    for (const broker of brokers) await broker.kill();
    await db?.stop();
  });

  it('publishes, consumes and acks on through the other, over the stream and over HTTP', async () => {
    const [doomed, survivor] = brokers;
    const urls = [doomed.url, survivor.url];
    const admin = new MiniQueue({ url: survivor.url, apiKey: db.adminKey, transport: 'http' });
    await admin.topics.create(TOPIC);
    // Leases of what the killed broker had sent but the client never got run out in 10 s.
    for (const queue of [STREAM_QUEUE, HTTP_QUEUE]) await admin.queues.create(queue, TOPIC, { ackTimeoutSeconds: 10, maxRetries: 100 });

    const streamed = new MiniQueue({ urls, apiKey: db.adminKey, instanceId: 'worker-stream' });
    const polled = new MiniQueue({ urls, apiKey: db.adminKey, instanceId: 'worker-http', transport: 'http' });
    const streamConsumer = ackingConsumer(streamed, STREAM_QUEUE);
    const httpConsumer = ackingConsumer(polled, HTTP_QUEUE);

    // Publishes alternate between the two clients (stream and HTTP), 32 at a time; the first broker dies a third of the way.
    const failed: unknown[] = [];
    let confirmed = 0;
    let next = 0;
    const publisher = async () => {
      while (next < PUBLISHES) {
        const i = next++;
        const client = i % 2 === 0 ? streamed : polled;
        await client.publish(TOPIC, `m${i}`).then(
          () => confirmed++,
          (error: unknown) => failed.push(error),
        );
      }
    };
    const publishing = Promise.all(Array.from({ length: 32 }, publisher));
    await until(() => confirmed >= KILL_AFTER, 30_000, `${KILL_AFTER} publishes before the kill`);
    await until(() => streamConsumer.acked.size > 0 && httpConsumer.acked.size > 0, 30_000, 'both consumers under way');
    await doomed.kill();
    await publishing;

    expect(failed.map(String).slice(0, 3), `${failed.length} publishes failed`).toEqual([]);
    const all = Array.from({ length: PUBLISHES }, (_, i) => `m${i}`);
    for (const { acked } of [streamConsumer, httpConsumer]) {
      await until(() => acked.size === PUBLISHES, 45_000, `every message acked (${acked.size} so far)`);
      expect(all.filter((payload) => !acked.has(payload))).toEqual([]);
    }
    expect(streamConsumer.settleErrors).toEqual([]);
    expect(httpConsumer.settleErrors).toEqual([]);
    await Promise.all([streamConsumer.consumer.stop(), httpConsumer.consumer.stop()]);
    streamed.close();
    polled.close();

    // Nothing was stored twice: every payload is one row per queue.
    const { rows } = await db.pool.query<{ copies: number }>(
      `SELECT count(*)::int AS copies FROM (SELECT payload, queue_name FROM message WHERE topic_name = $1
         UNION ALL SELECT payload, queue_name FROM message_acked WHERE topic_name = $1) AS stored GROUP BY payload, queue_name`,
      [TOPIC],
    );
    expect(rows).toHaveLength(2 * PUBLISHES);
    expect(rows.filter((row) => row.copies > 1)).toEqual([]);
  });
});
