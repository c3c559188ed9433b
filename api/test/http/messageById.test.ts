import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let consumer: string;

beforeAll(async () => {
  mq = await startTestBroker();
  // One queue per state, so that each claim takes the message just published.
  await topology(mq, 'byid', [{ name: 'byid-q' }, { name: 'byid-other' }]);
  consumer = await mq.clientKey('byid-consumer', ['consume:byid-q']);
});
afterAll(() => mq.stop());

/** Publishes one message; its copy in byid-q is then brought to `status` through the real transitions. */
async function messageIn(status: 'PENDING' | 'UNACKED' | 'ACKED' | 'DEAD'): Promise<string> {
  await mq.pool.query(`DELETE FROM message WHERE queue_name = 'byid-q'`);
  await publishOne(mq, 'byid', `payload ${status}`);
  const listed = await mq.get('/api/v1/queues/byid-q/messages', mq.adminKey);
  const id: string = listed.body.items.find((m: { status: string }) => m.status === 'PENDING').message_id;
  if (status === 'PENDING') return id;
  expect((await mq.post('/api/v1/queues/byid-q/consume', undefined, consumer)).body.message_id).toBe(id);
  if (status === 'ACKED') expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer)).status).toBe(200);
  if (status === 'DEAD') expect((await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, consumer)).status).toBe(200);
  return id;
}

/** The message as the queue's listing shows it. */
async function listed(id: string) {
  const page = await mq.get('/api/v1/queues/byid-q/messages?limit=100', mq.adminKey);
  return page.body.items.find((m: { message_id: string }) => m.message_id === id);
}

describe('GET /api/v1/messages/{id}', () => {
  it.each(['PENDING', 'UNACKED', 'ACKED', 'DEAD'] as const)('finds a %s message, in the shape the listing shows it', async (status) => {
    const id = await messageIn(status);
    const found = await mq.get(`/api/v1/messages/${id}`, mq.adminKey);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(await listed(id));
    expect(found.body).toMatchObject({ message_id: id, status, queue: 'byid-q', topic: 'byid', payload: `payload ${status}` });
    if (status === 'UNACKED') {
      expect(found.body.consumer_id).toBe('byid-consumer');
      expect(Date.parse(found.body.lease_expires_at)).toBeGreaterThan(Date.now());
    } else {
      expect(found.body.lease_expires_at).toBeNull();
    }
  });

  it('does not find an acked message its queue no longer keeps', async () => {
    const id = await messageIn('ACKED');
    expect((await mq.patch('/api/v1/queues/byid-q', { acked_retention_hours: 0 }, mq.adminKey)).status).toBe(200);
    try {
      const gone = await mq.get(`/api/v1/messages/${id}`, mq.adminKey);
      expect([gone.status, gone.body.code]).toEqual([404, 'message_not_found']);
    } finally {
      await mq.patch('/api/v1/queues/byid-q', { acked_retention_hours: null }, mq.adminKey);
    }
  });

  it('is 404 for an id no message has, and 400 for one that is no UUID', async () => {
    const unknown = await mq.get('/api/v1/messages/00000000-0000-7000-8000-000000000000', mq.adminKey);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'message_not_found']);
    const bad = await mq.get('/api/v1/messages/not-an-id', mq.adminKey);
    expect([bad.status, bad.body.code, bad.body.errors[0].field]).toEqual([400, 'validation_failed', 'id']);
  });

  it('lets view read any message, and a consumer only those of its own queues', async () => {
    const id = await messageIn('PENDING');
    const viewer = await mq.clientKey('byid-viewer', ['view']);
    expect((await mq.get(`/api/v1/messages/${id}`, viewer)).status).toBe(200);
    expect((await mq.get(`/api/v1/messages/${id}`, consumer)).status).toBe(200);
    const everyQueue = await mq.clientKey('byid-any', ['consume:*']);
    expect((await mq.get(`/api/v1/messages/${id}`, everyQueue)).status).toBe(200);
  });

  it('answers a consumer of another queue exactly as for an id that does not exist', async () => {
    const id = await messageIn('PENDING');
    const outsider = await mq.clientKey('byid-outsider', ['consume:byid-other', 'publish:byid']);
    const hidden = await mq.get(`/api/v1/messages/${id}`, outsider);
    const missing = await mq.get('/api/v1/messages/00000000-0000-7000-8000-000000000000', outsider);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ ...missing.body, message: missing.body.message.replace('00000000-0000-7000-8000-000000000000', id) });
  });

  it('refuses a credential with neither view nor a consume scope, before looking the id up', async () => {
    const id = await messageIn('PENDING');
    const publisher = await mq.clientKey('byid-publisher', ['publish:byid', 'metrics']);
    for (const target of [id, '00000000-0000-7000-8000-000000000000']) {
      const refused = await mq.get(`/api/v1/messages/${target}`, publisher);
      expect([refused.status, refused.body.code, refused.body.scope]).toEqual([403, 'scope_required', 'view']);
    }
  });
});
