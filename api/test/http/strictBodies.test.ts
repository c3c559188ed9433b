import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'strict', [{ name: 'strict-q' }]);
});
afterAll(() => mq.stop());

const ANY_ID = '0190a000-0000-7000-8000-000000000000';
const fieldsOf = (body: { errors: { field: string }[] | null }) => (body.errors ?? []).map((e) => e.field);

describe('JSON bodies take numbers and booleans as JSON numbers and booleans, never as strings', () => {
  it.each([
    ['/api/v1/queues/strict-q/receive', { max_messages: '10' }, 'max_messages'],
    ['/api/v1/queues/strict-q/receive', { wait_seconds: '5' }, 'wait_seconds'],
    [`/api/v1/messages/${ANY_ID}/extend`, { seconds: '10' }, 'seconds'],
    [`/api/v1/messages/${ANY_ID}/nack`, { delay_seconds: '5' }, 'delay_seconds'],
    [`/api/v1/messages/${ANY_ID}/nack`, { requeue: 'false' }, 'requeue'],
    ['/api/v1/topics/strict/messages', { payload: 'x', delay_seconds: '5' }, 'delay_seconds'],
    ['/api/v1/topics/strict/messages/batch', { messages: [{ payload: 'x', delay_seconds: '1' }] }, 'messages.0.delay_seconds'],
    ['/api/v1/queues', { name: 'never', topic_name: 'strict', ack_timeout_seconds: '30' }, 'ack_timeout_seconds'],
    ['/api/v1/queues', { name: 'never', topic_name: 'strict', max_retries: '5' }, 'max_retries'],
    ['/api/v1/dashboard/dlq/replay', { queue: 'strict-q', limit: '5' }, 'limit'],
  ])('%s refuses %j', async (url, body, field) => {
    const response = await mq.post(url, body, mq.adminKey);
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([field]);
  });

  it('stores and claims nothing when it refuses', async () => {
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message`);
    expect(rows[0].n).toBe(0);
    expect((await mq.get('/api/v1/queues', mq.adminKey)).body.map((q: { name: string }) => q.name)).not.toContain('never');
  });

  it('still reads numbers from the query string, where everything is a string', async () => {
    expect((await mq.post('/api/v1/queues/strict-q/consume?wait_seconds=0', undefined, mq.adminKey)).status).toBe(204);
    expect((await mq.get('/api/v1/queues/strict-q/messages?limit=3', mq.adminKey)).status).toBe(200);
  });

  it('accepts the same bodies with real numbers', async () => {
    expect((await mq.post('/api/v1/queues/strict-q/receive', { max_messages: 10, wait_seconds: 0 }, mq.adminKey)).status).toBe(200);
    expect((await mq.post('/api/v1/topics/strict/messages', { payload: 'x', delay_seconds: 5 }, mq.adminKey)).status).toBe(201);
  });
});
