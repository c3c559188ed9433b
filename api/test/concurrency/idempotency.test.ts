import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let shop: string;
const count = async (topic: string) => (await mq.pool.query('SELECT count(*)::int AS n FROM message WHERE topic_name = $1', [topic])).rows[0].n as number;
const publish = (topic: string, body: unknown, key: string | undefined, credential = shop) =>
  mq.post(`/api/v1/topics/${topic}/messages`, body, credential, key ? { 'Idempotency-Key': key } : {});

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'orders', [{ name: 'orders-a' }, { name: 'orders-b' }]);
  await topology(mq, 'refunds', [{ name: 'refunds-a' }]);
  shop = await mq.clientKey('shop', ['publish:*']);
});
afterAll(() => mq.stop());

describe('Idempotency-Key', () => {
  it('10 concurrent retries with one key store exactly one message per queue', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () => publish('orders', { payload: 'once' }, 'order-42')));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 200 && r.body.duplicate === true)).toHaveLength(9);
    const ids = new Set(responses.map((r) => JSON.stringify(r.body.message_ids)));
    expect(ids.size).toBe(1);
    expect(await count('orders')).toBe(2);
  });

  it('a reused key with another payload, headers or topic is 409 and stores nothing', async () => {
    expect((await publish('orders', { payload: 'p', headers: { a: '1' } }, 'k-409')).status).toBe(201);
    const before = await count('orders');
    expect((await publish('orders', { payload: 'other' }, 'k-409')).status).toBe(409);
    expect((await publish('orders', { payload: 'p', headers: { a: '2' } }, 'k-409')).status).toBe(409);
    expect((await publish('refunds', { payload: 'p', headers: { a: '1' } }, 'k-409')).status).toBe(409);
    expect(await count('orders')).toBe(before);
    expect(await count('refunds')).toBe(0);
    // The same content again (headers in another order) is a repeat.
    const repeat = await publish('orders', { payload: 'p', headers: { a: '1' } }, 'k-409');
    expect(repeat.body.duplicate).toBe(true);
  });

  it('keys belong to the publishing client', async () => {
    const other = await mq.clientKey('other-shop', ['publish:orders']);
    const first = await publish('orders', { payload: 'x' }, 'shared-key');
    const second = await publish('orders', { payload: 'x' }, 'shared-key', other);
    expect(second.status).toBe(201);
    expect(second.body.message_ids).not.toEqual(first.body.message_ids);
  });

  it('a publish that fails frees its key', async () => {
    expect((await publish('later', { payload: 'x' }, 'k-free')).status).toBe(404);
    await topology(mq, 'later', [{ name: 'later-q' }]);
    const retried = await publish('later', { payload: 'x' }, 'k-free');
    expect(retried.status).toBe(201);
    expect(retried.body.duplicate).toBe(false);
  });

  it('batch items share the key space, repeats inside one batch included', async () => {
    const batch = await mq.post(
      '/api/v1/topics/refunds/messages/batch',
      {
        messages: [{ payload: 'r1', idempotency_key: 'r-1' }, { payload: 'r2' }, { payload: 'r1', idempotency_key: 'r-1' }],
      },
      shop,
    );
    expect(batch.status).toBe(201);
    const [first, plain, repeat] = batch.body.results;
    expect(first.duplicate).toBe(false);
    expect(plain.duplicate).toBe(false);
    expect(repeat).toEqual({ ...first, duplicate: true });
    const single = await publish('refunds', { payload: 'r1' }, 'r-1');
    expect(single.body).toEqual({ ...first, duplicate: true });
    expect(await count('refunds')).toBe(2);
  });

  it('a batch is all or nothing: one conflicting key stores none of it', async () => {
    const before = await count('refunds');
    const batch = await mq.post(
      '/api/v1/topics/refunds/messages/batch',
      { messages: [{ payload: 'new one' }, { payload: 'changed', idempotency_key: 'r-1' }] },
      shop,
    );
    expect(batch.status).toBe(409);
    expect(await count('refunds')).toBe(before);
  });

  it('an expired key publishes anew', async () => {
    await publish('orders', { payload: 'old' }, 'k-old');
    await mq.pool.query(`UPDATE idempotency_key SET created_at = now() - interval '25 hours' WHERE key = 'k-old'`);
    const again = await publish('orders', { payload: 'different now' }, 'k-old');
    expect(again.status).toBe(201);
  });
});
