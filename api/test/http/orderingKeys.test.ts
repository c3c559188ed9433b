import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { orderingGroupCleanup } from '../../src/jobs/orderingGroupCleanup.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let worker: string;
let other: string;

const publish = async (topic: string, payload: string, orderingKey?: string, extra: object = {}) => {
  const response = await mq.post(`/api/v1/topics/${topic}/messages`, { payload, ordering_key: orderingKey, ...extra }, mq.adminKey);
  expect(response.status).toBe(201);
  return response.body.message_ids[0] as string;
};
const consume = async (queue: string, key = worker) => {
  const response = await mq.post(`/api/v1/queues/${queue}/consume`, undefined, key);
  return response.status === 204 ? null : (response.body as { message_id: string; payload: string; ordering_key: string | null });
};
/** Claims until the queue has nothing claimable; the payloads claimed (held, not acked). */
const drain = async (queue: string) => {
  const got: string[] = [];
  for (let m = await consume(queue); m; m = await consume(queue)) got.push(m.payload);
  return got;
};
const ack = async (id: string, key = worker) => expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, key)).status).toBe(200);
const sweep = async () => {
  await expireAllLeases(mq);
  await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
};

beforeAll(async () => {
  mq = await startTestBroker();
  worker = await mq.clientKey('ordered-worker', ['consume:*']);
  other = await mq.clientKey('ordered-other', ['consume:*']);
});
afterAll(() => mq.stop());

describe('ordering keys', () => {
  it('one message of a key at a time, in publish order; other keys and unkeyed messages do not wait', async () => {
    await topology(mq, 'orders', [{ name: 'orders-q', max_retries: 5 }]);
    const a1 = await publish('orders', 'a1', 'a');
    await publish('orders', 'a2', 'a');
    await publish('orders', 'b1', 'b');
    await publish('orders', 'plain');
    await publish('orders', 'a3', 'a');
    // Only the heads of a and b, and the unkeyed message, are claimable.
    expect(await drain('orders-q')).toEqual(['a1', 'b1', 'plain']);
    // Held a1 keeps a2 back, whoever asks.
    expect(await consume('orders-q', other)).toBeNull();
    await ack(a1);
    const a2 = await consume('orders-q', other);
    expect(a2).toMatchObject({ payload: 'a2', ordering_key: 'a' });
    expect(await consume('orders-q')).toBeNull();
    await ack(a2!.message_id, other);
    expect(await drain('orders-q')).toEqual(['a3']);
  });

  it('a nack, a nack with delay and an expired lease redeliver the same message first', async () => {
    await topology(mq, 'nacks', [{ name: 'nacks-q', max_retries: 10 }]);
    const first = await publish('nacks', 'k1', 'k');
    await publish('nacks', 'k2', 'k');
    expect((await consume('nacks-q'))?.message_id).toBe(first);
    expect((await mq.post(`/api/v1/messages/${first}/nack`, {}, worker)).status).toBe(200);
    expect((await consume('nacks-q'))?.message_id).toBe(first);
    // Delayed: nothing of k is claimable until the delay ends (k2 stays behind it).
    expect((await mq.post(`/api/v1/messages/${first}/nack`, { delay_seconds: 60 }, worker)).status).toBe(200);
    expect(await consume('nacks-q')).toBeNull();
    await mq.pool.query(`UPDATE message SET available_at = now() WHERE id = $1`, [first]);
    expect((await consume('nacks-q'))?.message_id).toBe(first);
    await sweep();
    expect((await consume('nacks-q', other))?.message_id).toBe(first);
    await ack(first, other);
    expect((await consume('nacks-q'))?.payload).toBe('k2');
  });

  it('a message that goes DEAD (nack without requeue, or retries used up) lets the next one through; replay appends it', async () => {
    await topology(mq, 'deaths', [{ name: 'deaths-q', max_retries: 0 }]);
    const d1 = await publish('deaths', 'd1', 'd');
    await publish('deaths', 'd2', 'd');
    await publish('deaths', 'd3', 'd');
    expect((await consume('deaths-q'))?.message_id).toBe(d1);
    expect((await mq.post(`/api/v1/messages/${d1}/nack`, { requeue: false }, worker)).status).toBe(200);
    const d2 = await consume('deaths-q');
    expect(d2?.payload).toBe('d2');
    await sweep(); // max_retries 0: the expired lease is d2's death
    const d3 = await consume('deaths-q');
    expect(d3?.payload).toBe('d3');
    // d1 replayed while d3 is held: it waits behind d3, as if published again.
    expect((await mq.post(`/api/v1/dashboard/dlq/${d1}/replay`, undefined, mq.adminKey)).status).toBe(200);
    expect(await consume('deaths-q')).toBeNull();
    const listed = await mq.get('/api/v1/queues/deaths-q/messages?status=PENDING', mq.adminKey);
    expect(listed.body.items.map((m: { message_id: string; status: string }) => [m.message_id, m.status])).toEqual([[d1, 'PENDING']]);
    await ack(d3!.message_id);
    expect((await consume('deaths-q'))?.message_id).toBe(d1);
  });

  it('a batch keeps its order per key, and fan-out orders each queue on its own', async () => {
    await topology(mq, 'fan', [{ name: 'fan-1' }, { name: 'fan-2' }]);
    const response = await mq.post(
      '/api/v1/topics/fan/messages/batch',
      { messages: ['x1', 'y1', 'x2', 'x3'].map((payload) => ({ payload, ordering_key: payload[0] })) },
      mq.adminKey,
    );
    expect(response.status).toBe(201);
    for (const queue of ['fan-1', 'fan-2']) {
      const order: string[] = [];
      for (;;) {
        const held = [];
        for (let m = await consume(queue); m; m = await consume(queue)) held.push(m);
        if (held.length === 0) break;
        order.push(...held.map((m) => m.payload));
        for (const m of held) await ack(m.message_id);
      }
      expect(order).toEqual(['x1', 'y1', 'x2', 'x3']);
    }
  });

  it('a queue that requires keys refuses a publish without one, with a code, and nothing is stored anywhere', async () => {
    await topology(mq, 'strict', [{ name: 'strict-loose' }]);
    const created = await mq.post('/api/v1/queues', { name: 'strict-q', topic_name: 'strict', require_ordering_key: true }, mq.adminKey);
    expect(created.body).toMatchObject({ require_ordering_key: true });
    const single = await mq.post('/api/v1/topics/strict/messages', { payload: 'no key' }, mq.adminKey);
    expect(single.status).toBe(400);
    expect(single.body.code).toBe('ordering_key_required');
    const batch = await mq.post(
      '/api/v1/topics/strict/messages/batch',
      { messages: [{ payload: 'keyed', ordering_key: 'k' }, { payload: 'no key' }] },
      mq.adminKey,
    );
    expect(batch.status).toBe(400);
    expect(batch.body.code).toBe('ordering_key_required');
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE topic_name = 'strict'`);
    expect(rows[0].n).toBe(0);
    expect((await mq.post('/api/v1/topics/strict/messages', { payload: 'keyed', ordering_key: 'k' }, mq.adminKey)).status).toBe(201);
    const changed = await mq.patch('/api/v1/queues/strict-q', { require_ordering_key: false }, mq.adminKey);
    expect(changed.body.require_ordering_key).toBe(false);
    expect((await mq.post('/api/v1/topics/strict/messages', { payload: 'no key' }, mq.adminKey)).status).toBe(201);
  });

  it('a keyless batch of which only some items match a filtered queue that requires keys stores nothing', async () => {
    await topology(mq, 'strict-eu', [{ name: 'strict-eu-all' }]);
    const created = await mq.post(
      '/api/v1/queues',
      { name: 'strict-eu-q', topic_name: 'strict-eu', require_ordering_key: true, filter: { header: 'region', equals: 'eu' } },
      mq.adminKey,
    );
    expect(created.status).toBe(201);
    const batch = await mq.post(
      '/api/v1/topics/strict-eu/messages/batch',
      {
        messages: [
          { payload: 'us', headers: { region: 'us' } },
          { payload: 'eu', headers: { region: 'eu' } },
        ],
      },
      mq.adminKey,
    );
    expect(batch.status).toBe(400);
    expect(batch.body.code).toBe('ordering_key_required');
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE topic_name = 'strict-eu'`);
    expect(rows[0].n).toBe(0);
    const outside = await mq.post('/api/v1/topics/strict-eu/messages', { payload: 'us', headers: { region: 'us' } }, mq.adminKey);
    expect(outside.body.queues).toEqual(['strict-eu-all']);
  });

  it('groups with nothing live are forgotten, and a key used again starts a new group in order', async () => {
    await topology(mq, 'once', [{ name: 'once-q' }]);
    const groups = async () => (await mq.pool.query(`SELECT ordering_key, live FROM ordering_group WHERE queue_name = 'once-q' ORDER BY 1`)).rows;
    await publish('once', 'done', 'done');
    await ack((await consume('once-q'))!.message_id);
    await publish('once', 'waiting', 'busy');
    expect(await groups()).toEqual([
      { ordering_key: 'busy', live: 1 },
      { ordering_key: 'done', live: 0 },
    ]);
    expect(await orderingGroupCleanup(mq.pool).runOnce()).toBeGreaterThanOrEqual(1);
    expect(await groups()).toEqual([{ ordering_key: 'busy', live: 1 }]);
    await publish('once', 'again 1', 'done');
    await publish('once', 'again 2', 'done');
    expect(await drain('once-q')).toEqual(['waiting', 'again 1']);
  });

  it('purging a queue forgets its keys, so new messages of a key are claimable at once', async () => {
    await topology(mq, 'purged', [{ name: 'purged-q' }]);
    await publish('purged', 'p1', 'p');
    await publish('purged', 'p2', 'p');
    expect((await mq.post('/api/v1/queues/purged-q/purge', undefined, mq.adminKey)).body.purged).toBe(2);
    await publish('purged', 'p3', 'p');
    expect(await drain('purged-q')).toEqual(['p3']);
  });
});
