import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { checkResponse } from '../helpers/contract.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'orders', [{ name: 'billing', max_retries: 0 }]);
  await topology(mq, 'quiet', [{ name: 'idle' }]);
});
afterAll(() => mq.stop());

/** The answer, held to what openapi.yaml promises for it. */
async function consumersOf(queue: string, key = mq.adminKey) {
  const url = `/api/v1/dashboard/queues/${queue}/consumers`;
  const response = await mq.get(url, key);
  checkResponse('GET', url, response.status, response.body, String(response.headers['content-type']));
  return response;
}
const flush = () => mq.broker.core.rateRecorder.runOnce();

describe("a queue's consumers", () => {
  it('lists each identity that asked, when it was last seen and how many messages it holds', async () => {
    const worker = await mq.clientKey('worker', ['consume:billing', 'consume:idle']);
    for (let i = 0; i < 3; i++) await publishOne(mq, 'orders', `order ${i}`);
    const before = Date.now();
    for (let i = 0; i < 2; i++) expect((await mq.post('/api/v1/queues/billing/consume', undefined, worker, { 'MiniQueue-Instance': 'a' })).status).toBe(200);
    expect((await mq.post('/api/v1/queues/billing/consume', undefined, worker, { 'MiniQueue-Instance': 'b' })).status).toBe(200);
    // Idle asks count as seen: nothing is left, the consumer still asked.
    expect((await mq.post('/api/v1/queues/idle/consume', undefined, worker)).status).toBe(204);
    await flush();

    const answer = await consumersOf('billing');
    expect(answer.status).toBe(200);
    expect(answer.body.queue).toBe('billing');
    expect(answer.body.push_endpoint).toBe(false);
    const held = Object.fromEntries(answer.body.consumers.map((c: { consumer_id: string; in_flight: number }) => [c.consumer_id, c.in_flight]));
    expect(Object.values(held).sort()).toEqual([1, 2]);
    for (const consumer of answer.body.consumers) expect(new Date(consumer.last_seen_at).getTime()).toBeGreaterThanOrEqual(before - 1000);

    const idle = await consumersOf('idle');
    expect(idle.body.consumers).toHaveLength(1);
    expect(idle.body.consumers[0].in_flight).toBe(0);
  });

  it('lists a holder that has not been recorded as seen, with no last-seen time', async () => {
    await publishOne(mq, 'orders', 'unrecorded');
    const claimed = await mq.post('/api/v1/queues/billing/consume', undefined, mq.adminKey, { 'MiniQueue-Instance': 'fresh' });
    expect(claimed.status).toBe(200);
    // Not flushed: only the lease knows of this consumer so far.
    const answer = await consumersOf('billing');
    const fresh = answer.body.consumers.find((c: { consumer_id: string }) => c.consumer_id === claimed.body.consumer_id);
    expect(fresh).toEqual({ consumer_id: claimed.body.consumer_id, last_seen_at: null, in_flight: 1 });
  });

  it('is readable with the view scope, 404 for an unknown queue and 400 for a bad name', async () => {
    const viewer = await mq.clientKey('viewer', ['view']);
    expect((await consumersOf('billing', viewer)).status).toBe(200);
    const unknown = await consumersOf('nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('queue_not_found');
    expect((await consumersOf('bad%20name')).status).toBe(400);
    const publisher = await mq.clientKey('publisher', ['publish:orders']);
    expect((await consumersOf('billing', publisher)).status).toBe(403);
  });
});

describe('dead letters in the queue list', () => {
  it('counts the messages dead-lettered in the last 10 minutes', async () => {
    await topology(mq, 'fragile', [{ name: 'breaks', max_retries: 0 }]);
    await publishOne(mq, 'fragile', 'doomed');
    const claimed = await mq.post('/api/v1/queues/breaks/consume', undefined, mq.adminKey);
    expect((await mq.post(`/api/v1/messages/${claimed.body.message_id}/nack`, { requeue: false }, mq.adminKey)).status).toBe(200);
    await flush();
    const stats = await mq.get('/api/v1/dashboard/queues', mq.adminKey);
    checkResponse('GET', '/api/v1/dashboard/queues', stats.status, stats.body, String(stats.headers['content-type']));
    const row = (name: string) => stats.body.find((entry: { queue: string }) => entry.queue === name);
    expect(row('breaks').dead_last_10_minutes).toBe(1);
    expect(row('idle').dead_last_10_minutes).toBe(0);
  });
});
