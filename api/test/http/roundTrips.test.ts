import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { statementsDuring } from '../helpers/statements.js';

let mq: TestBroker;
let producer: string;
let consumer: string;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'rt', [{ name: 'rt-a' }, { name: 'rt-b' }]);
  producer = await mq.clientKey('rt-producer', ['publish:rt']);
  consumer = await mq.clientKey('rt-consumer', ['consume:rt-a']);
  // Warm up: keys cached, last_used_at written, the topic's queue count learnt.
  await mq.post('/api/v1/topics/rt/messages', { payload: 'warm' }, producer);
  const warm = await mq.post('/api/v1/queues/rt-a/consume', undefined, consumer);
  await mq.post(`/api/v1/messages/${warm.body.message_id}/ack`, undefined, consumer);
  await new Promise((resolve) => setTimeout(resolve, 100));
});
afterAll(() => mq.stop());

describe('the hot paths are one database round trip each', () => {
  it('publish without an idempotency key (fan-out to two queues), consume, and ack', async () => {
    let id = '';
    expect(await statementsDuring(() => mq.post('/api/v1/topics/rt/messages', { payload: 'x' }, producer))).toBe(1);
    expect(
      await statementsDuring(async () => {
        id = (await mq.post('/api/v1/queues/rt-a/consume', undefined, consumer)).body.message_id;
      }),
    ).toBe(1);
    expect(await statementsDuring(() => mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer))).toBe(1);
  });

  it('a batch publish without keys is one statement too', async () => {
    const messages = Array.from({ length: 100 }, (_, i) => ({ payload: `b${i}` }));
    expect(await statementsDuring(() => mq.post('/api/v1/topics/rt/messages/batch', { messages }, producer))).toBe(1);
  });
});
