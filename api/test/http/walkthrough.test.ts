import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

describe('publish, consume, ack', () => {
  it('fans a message out to every bound queue and delivers each copy once', async () => {
    const admin = mq.adminKey;
    expect((await mq.post('/api/v1/topics', { name: 'Order.Placed' }, admin)).status).toBe(201);
    for (const name of ['email-queue', 'stock-queue']) {
      expect((await mq.post('/api/v1/queues', { name, topic_name: 'order.placed' }, admin)).status).toBe(201);
    }
    const shop = await mq.clientKey('shop', ['publish:order.placed']);
    const mailer = await mq.clientKey('email-service', ['consume:email-queue']);

    const published = await mq.post('/api/v1/topics/order.placed/messages', { payload: '{"orderId":42}' }, shop);
    expect(published.status).toBe(201);
    expect(published.body.queues).toEqual(['email-queue', 'stock-queue']);
    expect(published.body.message_ids).toHaveLength(2);

    const consumed = await mq.post('/api/v1/queues/Email-Queue/consume', undefined, mailer);
    expect(consumed.status).toBe(200);
    expect(consumed.body).toMatchObject({ queue: 'email-queue', status: 'UNACKED', consumer_id: 'email-service', payload: '{"orderId":42}' });

    expect((await mq.post('/api/v1/queues/email-queue/consume', undefined, mailer)).status).toBe(204);
    expect((await mq.post('/api/v1/queues/stock-queue/consume', undefined, mailer)).status).toBe(403);

    const acked = await mq.post(`/api/v1/messages/${consumed.body.message_id}/ack`, undefined, mailer);
    expect(acked.body).toEqual({ message_id: consumed.body.message_id, status: 'ACKED' });
    // An ack retried after its answer was lost is answered as done, and counts once.
    const again = await mq.post(`/api/v1/messages/${consumed.body.message_id}/ack`, undefined, mailer);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(acked.body);

    const stats = await mq.get('/api/v1/dashboard/queues', admin);
    expect(stats.body).toEqual([
      expect.objectContaining({ queue: 'email-queue', pending: 0, unacked: 0, acked: 1, dead: 0 }),
      expect.objectContaining({ queue: 'stock-queue', pending: 1, unacked: 0, acked: 0, dead: 0 }),
    ]);
  });
});
