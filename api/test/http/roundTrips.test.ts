import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { isNotification, isRateWrite, statementsDuring } from '../helpers/statements.js';

let mq: TestBroker;
let producer: string;
let consumer: string;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'rt', [{ name: 'rt-a' }, { name: 'rt-b' }]);
  producer = await mq.clientKey('rt-producer', ['publish:rt']);
  consumer = await mq.clientKey('rt-consumer', ['consume:rt-a', 'consume:rt-b']);
  // Warm up: keys cached and last_used_at written.
  await mq.post('/api/v1/topics/rt/messages', { payload: 'warm' }, producer);
  const warm = await mq.post('/api/v1/queues/rt-a/consume', undefined, consumer);
  await mq.post(`/api/v1/messages/${warm.body.message_id}/ack`, undefined, consumer);
  await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(() => mq.stop());

/** What a request sent: not the NOTIFYs after it, nor the rate recorder's write, which runs every 5 s whatever requests do. */
const writes = (statements: string[]) => statements.filter((sql) => !isNotification(sql) && !isRateWrite(sql));

describe('one statement per request when alone', () => {
  it('publish without an idempotency key (fan-out to two queues), consume, and ack', async () => {
    let id = '';
    expect(writes(await statementsDuring(() => mq.post('/api/v1/topics/rt/messages', { payload: 'x' }, producer)))).toHaveLength(1);
    const consumed = await statementsDuring(async () => {
      id = (await mq.post('/api/v1/queues/rt-a/consume', undefined, consumer)).body.message_id;
    });
    expect(writes(consumed)).toHaveLength(1);
    expect(writes(await statementsDuring(() => mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer)))).toHaveLength(1);
  });

  it('a batch publish, keyed or not, is one statement too', async () => {
    const messages = Array.from({ length: 100 }, (_, i) => ({ payload: `b${i}` }));
    expect(writes(await statementsDuring(() => mq.post('/api/v1/topics/rt/messages/batch', { messages }, producer)))).toHaveLength(1);
    const keyed = messages.map((message, i) => ({ ...message, idempotency_key: `batch-${i}` }));
    // BEGIN, the statement, COMMIT: keys make it a transaction (a key conflict must undo it).
    expect(writes(await statementsDuring(() => mq.post('/api/v1/topics/rt/messages/batch', { messages: keyed }, producer)))).toHaveLength(3);
  });
});

describe('group commit: concurrent requests share statements and commits', () => {
  const N = 200;

  it('single publishes, with and without keys: fewer than one commit per message, notifications included', async () => {
    for (const keyed of [false, true]) {
      const statements = await statementsDuring(() =>
        Promise.all(
          Array.from({ length: N }, (_, i) =>
            mq.post('/api/v1/topics/rt/messages', { payload: `c${i}` }, producer, keyed ? { 'Idempotency-Key': `gc-${i}` } : {}),
          ),
        ).then((answers) => expect(answers.every((answer) => answer.status === 201)).toBe(true)),
      );
      expect(statements.length / N).toBeLessThan(0.5);
      // Other instances hear of all of it through a handful of debounced notifications.
      expect(statements.filter(isNotification).length).toBeLessThan(10);
    }
  });

  it('acks and nacks of single messages', async () => {
    const claimed: string[] = [];
    for (let i = 0; i < N; i += 1) claimed.push((await mq.post('/api/v1/queues/rt-b/consume', undefined, consumer)).body.message_id);
    const [acks, nacks] = [claimed.slice(0, N / 2), claimed.slice(N / 2)];
    const statements = await statementsDuring(() =>
      Promise.all([
        ...acks.map((id) => mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer)),
        ...nacks.map((id) => mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, consumer)),
      ]).then((answers) => expect(answers.every((answer) => answer.status === 200)).toBe(true)),
    );
    expect(writes(statements).length / N).toBeLessThan(0.5);
    const dead = await mq.get('/api/v1/dashboard/dlq?queue=rt-b&limit=200', mq.adminKey);
    expect(dead.body.items.map((m: { message_id: string }) => m.message_id).sort()).toEqual([...nacks].sort());
  });
});
