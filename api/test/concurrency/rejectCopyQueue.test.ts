import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

/**
 * A reject_copy queue beside a plain queue of the same topic, under 32 concurrent publishers on two
 * instances of one database (single publishes, which group-commit, and batches), with a consumer
 * acking the bounded queue: it never holds more than its bound at any sampled moment, every
 * publish is accepted, the plain queue gets every copy, and the bounded queue holds exactly the
 * copies the answers did not name as refused (less what was acked).
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
  expect((await a.post('/api/v1/topics', { name: 'shared' }, a.adminKey)).status).toBe(201);
  for (const queue of [{ name: 'shared-side', max_messages: MAX, overflow: 'reject_copy' }, { name: 'shared-main' }]) {
    expect((await a.post('/api/v1/queues', { topic_name: 'shared', ...queue }, a.adminKey)).status).toBe(201);
  }
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const liveCounts = async () =>
  Object.fromEntries(
    (
      await a.pool.query<{ queue_name: string; n: number }>(
        `SELECT q AS queue_name, (SELECT count(*) FROM message m WHERE m.queue_name = q)::int AS n FROM unnest($1::text[]) AS q`,
        [['shared-side', 'shared-main']],
      )
    ).rows.map((row) => [row.queue_name, row.n]),
  ) as Record<'shared-side' | 'shared-main', number>;

interface Outcome {
  queues: string[];
  refused?: { queue: string; code: string }[];
}

describe('a reject_copy queue under 32 concurrent publishers on two instances', () => {
  it('never holds more than its bound, while the plain queue of its topic gets every copy', async () => {
    const deadline = Date.now() + RUN_MS;
    const running = () => Date.now() < deadline;
    let accepted = 0;
    let sideCopies = 0;
    let refusedCopies = 0;
    let acked = 0;
    const over: number[] = [];
    const count = (outcome: Outcome) => {
      accepted += 1;
      expect(outcome.queues).toContain('shared-main');
      if (outcome.queues.includes('shared-side')) sideCopies += 1;
      else {
        expect(outcome.refused).toMatchObject([{ queue: 'shared-side', code: 'queue_full' }]);
        refusedCopies += 1;
      }
    };
    const publisher = async (n: number) => {
      const mq = n % 2 === 0 ? a : b;
      for (let i = 0; running(); i++) {
        const batch = i % 4 === 0;
        const response = batch
          ? await mq.post('/api/v1/topics/shared/messages/batch', { messages: [{ payload: `b${n}-${i}-0` }, { payload: `b${n}-${i}-1` }] }, mq.adminKey)
          : await mq.post('/api/v1/topics/shared/messages', { payload: `s${n}-${i}` }, mq.adminKey);
        if (response.status !== 201) throw new Error(`publish: ${response.status} ${JSON.stringify(response.body)}`);
        for (const outcome of batch ? (response.body.results as Outcome[]) : [response.body as Outcome]) count(outcome);
      }
    };
    const consumer = async () => {
      while (running()) {
        const { messages } = (await a.post('/api/v1/queues/shared-side/receive', { max_messages: 5 }, a.adminKey)).body;
        for (const message of messages) {
          if ((await a.post(`/api/v1/messages/${message.message_id}/ack`, {}, a.adminKey)).status === 200) acked += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const sampler = async () => {
      while (running()) {
        const n = (await liveCounts())['shared-side'];
        if (n > MAX) over.push(n);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await Promise.all([...Array.from({ length: PUBLISHERS }, (_, n) => publisher(n)), consumer(), sampler()]);

    expect(over).toEqual([]);
    expect(refusedCopies).toBeGreaterThan(0);
    const counts = await liveCounts();
    // The plain queue took every publish; nothing of it waited for the side queue's consumer.
    expect(counts['shared-main']).toBe(accepted);
    // The side queue holds exactly the copies answered as stored there, less what was acked.
    expect(counts['shared-side']).toBe(sideCopies - acked);
    expect(counts['shared-side']).toBeLessThanOrEqual(MAX);
  }, 30_000);
});
