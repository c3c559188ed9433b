import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

/**
 * A bounded queue's limit under 32 concurrent publishers on two instances of one database (single
 * publishes, which group-commit, and batches), with a consumer acking: the live messages never
 * exceed the bound, at any sampled moment, and every accepted publish is there or was acked. The
 * guard is the queue row lock taken before the statement that reads the counts (broker/bounds.ts).
 */
const RUN_MS = 3_000;
const PUBLISHERS = 32;
const MAX = 40;
let a: TestBroker;
let b: TestBroker;

beforeAll(async () => {
  const env = { MINIQUEUE_RATE_LIMIT_ENABLED: 'false', MINIQUEUE_DB_POOL_SIZE: '16' };
  a = await startTestBroker({ env });
  b = await startTestBroker({ env, databaseUrl: a.databaseUrl, adminKey: a.adminKey });
  expect((await a.post('/api/v1/topics', { name: 'crowded' }, a.adminKey)).status).toBe(201);
  for (const queue of [
    { name: 'crowded-reject', max_messages: MAX },
    { name: 'crowded-drop', max_messages: MAX, overflow: 'drop_oldest' },
  ]) {
    expect((await a.post('/api/v1/queues', { topic_name: 'crowded', ...queue }, a.adminKey)).status).toBe(201);
  }
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const liveCounts = async () =>
  (
    await a.pool.query<{ queue_name: string; n: number }>(
      `SELECT q AS queue_name, (SELECT count(*) FROM message m WHERE m.queue_name = q)::int AS n FROM unnest($1::text[]) AS q`,
      [['crowded-reject', 'crowded-drop']],
    )
  ).rows;

describe('a bounded queue under 32 concurrent publishers on two instances', () => {
  it('never holds more than its bound, and refuses exactly what does not fit', async () => {
    const deadline = Date.now() + RUN_MS;
    const running = () => Date.now() < deadline;
    let accepted = 0;
    let refused = 0;
    let acked = 0;
    const over: unknown[] = [];
    const publisher = async (n: number) => {
      const mq = n % 2 === 0 ? a : b;
      for (let i = 0; running(); i++) {
        const response =
          i % 4 === 0
            ? await mq.post('/api/v1/topics/crowded/messages/batch', { messages: [{ payload: `b${n}-${i}-0` }, { payload: `b${n}-${i}-1` }] }, mq.adminKey)
            : await mq.post('/api/v1/topics/crowded/messages', { payload: `s${n}-${i}` }, mq.adminKey);
        if (response.status === 201) accepted += i % 4 === 0 ? 2 : 1;
        else if (response.status === 429 && response.body.code === 'queue_full') refused += 1;
        else throw new Error(`publish: ${response.status} ${JSON.stringify(response.body)}`);
      }
    };
    const consumer = async () => {
      while (running()) {
        const { messages } = (await a.post('/api/v1/queues/crowded-reject/receive', { max_messages: 5 }, a.adminKey)).body;
        for (const message of messages) {
          if ((await a.post(`/api/v1/messages/${message.message_id}/ack`, {}, a.adminKey)).status === 200) acked += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const sampler = async () => {
      while (running()) {
        for (const row of await liveCounts()) if (row.n > MAX) over.push(row);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await Promise.all([...Array.from({ length: PUBLISHERS }, (_, n) => publisher(n)), consumer(), sampler()]);

    expect(over).toEqual([]);
    expect(refused).toBeGreaterThan(0);
    const counts = Object.fromEntries((await liveCounts()).map((row) => [row.queue_name, row.n]));
    // Everything accepted is live in the reject queue or was acked: nothing lost, nothing past the bound.
    expect(counts['crowded-reject']).toBe(accepted - acked);
    expect(counts['crowded-reject']).toBeLessThanOrEqual(MAX);
    // The drop queue took every accepted publish and kept the newest MAX.
    expect(counts['crowded-drop']).toBe(MAX);
  }, 30_000);
});
