import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishMessage, receiveMessages, topology } from '../helpers/fixtures.js';

/** Fair sharing (migration 0022): a queue with fairness by_key goes round its group keys in turn. */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq?.stop());

interface Delivered {
  message_id: string;
  payload: string;
  group_key: string | null;
}

const publish = (topic: string, body: Record<string, unknown>) => publishMessage(mq, topic, body);
const publishMany = async (topic: string, groupKey: string, count: number) => {
  const messages = Array.from({ length: count }, (_, i) => ({ payload: `${groupKey}-${i}`, group_key: groupKey }));
  const response = await mq.post(`/api/v1/topics/${topic}/messages/batch`, { messages }, mq.adminKey);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
};
const receive = (queue: string, max = 100, waitSeconds = 0) => receiveMessages<Delivered>(mq, queue, max, waitSeconds);
const ack = async (id: string) => expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, mq.adminKey)).status).toBe(200);

describe('a queue with fairness by_key', () => {
  it("gives each key's oldest before any key's second, where a plain queue goes oldest first", async () => {
    await topology(mq, 'fair', [{ name: 'fair-q', fairness: 'by_key' }, { name: 'fair-plain' }]);
    await publishMany('fair', 'noisy', 5);
    await publish('fair', { payload: 'quiet-0', group_key: 'quiet' });
    await publish('fair', { payload: 'other-0', group_key: 'other' });

    const fair = await receive('fair-q', 4);
    expect(fair.map((m) => m.payload).sort()).toEqual(['noisy-0', 'noisy-1', 'other-0', 'quiet-0']);
    expect(fair.find((m) => m.payload === 'quiet-0')?.group_key).toBe('quiet');

    const plain = await receive('fair-plain', 4);
    expect(plain.map((m) => m.payload)).toEqual(['noisy-0', 'noisy-1', 'noisy-2', 'noisy-3']);
    expect(plain.every((m) => m.group_key === null)).toBe(true);
  });

  it('takes turns across claims: one message a claim goes round the keys', async () => {
    await topology(mq, 'fair-turns', [{ name: 'fair-turns-q', fairness: 'by_key' }]);
    await publishMany('fair-turns', 'a', 3);
    await publishMany('fair-turns', 'b', 3);
    await publishMany('fair-turns', 'c', 1);
    const order: string[] = [];
    for (let i = 0; i < 7; i++) order.push(...(await receive('fair-turns-q', 1)).map((m) => m.payload));
    expect(order).toEqual(['a-0', 'b-0', 'c-0', 'a-1', 'b-1', 'a-2', 'b-2']);
    expect(await receive('fair-turns-q', 1)).toEqual([]);
  });

  it('holds a key at max_in_flight_per_key while the others are delivered, and lets it go on when one is acked', async () => {
    await topology(mq, 'fair-limit', [{ name: 'fair-limit-q', fairness: 'by_key', max_in_flight_per_key: 2 }]);
    await publishMany('fair-limit', 'noisy', 10);
    const first = await receive('fair-limit-q', 10);
    expect(first.map((m) => m.payload)).toEqual(['noisy-0', 'noisy-1']);
    expect(await receive('fair-limit-q', 10)).toEqual([]);

    await publish('fair-limit', { payload: 'quiet-0', group_key: 'quiet' });
    expect((await receive('fair-limit-q', 10)).map((m) => m.payload)).toEqual(['quiet-0']);

    await ack(first[0].message_id);
    expect((await receive('fair-limit-q', 10)).map((m) => m.payload)).toEqual(['noisy-2']);
    expect(await receive('fair-limit-q', 10)).toEqual([]);
  });

  it('answers a long poll held by a full key as soon as another key publishes or the key is acked', async () => {
    await topology(mq, 'fair-wake', [{ name: 'fair-wake-q', fairness: 'by_key', max_in_flight_per_key: 1 }]);
    await publishMany('fair-wake', 'noisy', 3);
    const [held] = await receive('fair-wake-q', 1);

    let started = Date.now();
    const waiting = receive('fair-wake-q', 1, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await publish('fair-wake', { payload: 'quiet-0', group_key: 'quiet' });
    expect((await waiting).map((m) => m.payload)).toEqual(['quiet-0']);
    expect(Date.now() - started).toBeLessThan(2_000);

    started = Date.now();
    const next = receive('fair-wake-q', 1, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ack(held.message_id);
    expect((await next).map((m) => m.payload)).toEqual(['noisy-1']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('groups by the ordering key when no group key is given, else by the empty key, and keeps each ordering key in order', async () => {
    await topology(mq, 'fair-keys', [{ name: 'fair-keys-q', fairness: 'by_key', max_in_flight_per_key: 5 }]);
    await publish('fair-keys', { payload: 'o-1', ordering_key: 'order-7' });
    await publish('fair-keys', { payload: 'o-2', ordering_key: 'order-7' });
    await publish('fair-keys', { payload: 'g-1', ordering_key: 'order-8', group_key: 'tenant-1' });
    await publish('fair-keys', { payload: 'none-1' });
    const got = await receive('fair-keys-q', 10);
    expect(Object.fromEntries(got.map((m) => [m.payload, m.group_key]))).toEqual({ 'o-1': 'order-7', 'g-1': 'tenant-1', 'none-1': '' });
    await ack(got.find((m) => m.payload === 'o-1')!.message_id);
    expect((await receive('fair-keys-q', 10)).map((m) => m.payload)).toEqual(['o-2']);
  });

  it('keeps the group key through a dead letter and its replay, and gives routed dead letters one', async () => {
    await topology(mq, 'fair-dlq-dlt', [{ name: 'fair-dlq-routed', fairness: 'by_key' }]);
    await topology(mq, 'fair-dlq', [{ name: 'fair-dlq-q', fairness: 'by_key', dead_letter_topic: 'fair-dlq-dlt', dead_letter_keep: true }]);
    const [id] = await publish('fair-dlq', { payload: 'p', group_key: 'tenant-9' });
    const [claimed] = await receive('fair-dlq-q', 1);
    expect((await mq.post(`/api/v1/messages/${claimed.message_id}/nack`, { requeue: false }, mq.adminKey)).status).toBe(200);
    expect((await receive('fair-dlq-routed', 1)).map((m) => m.group_key)).toEqual(['tenant-9']);
    expect((await mq.post(`/api/v1/dashboard/dlq/${id}/replay`, undefined, mq.adminKey)).status).toBe(200);
    expect((await receive('fair-dlq-q', 1)).map((m) => [m.payload, m.group_key])).toEqual([['p', 'tenant-9']]);
  });
});

describe('the first claims of a gated queue this instance has not claimed from yet', () => {
  it('all find its messages, however many arrive together (fair and rate-limited queues)', async () => {
    await topology(mq, 'gated-first', [
      { name: 'gated-first-fair', fairness: 'by_key' },
      { name: 'gated-first-rate', max_deliveries_per_second: 100_000 },
    ]);
    await mq.post('/api/v1/topics/gated-first/messages/batch', { messages: Array.from({ length: 64 }, (_, i) => ({ payload: `m${i}` })) }, mq.adminKey);
    for (const queue of ['gated-first-fair', 'gated-first-rate']) {
      // Each went the plain way and found the queue gated; the ones after the first used to answer empty.
      const answers = await Promise.all(Array.from({ length: 32 }, () => mq.post(`/api/v1/queues/${queue}/consume`, undefined, mq.adminKey)));
      expect(
        answers.map((answer) => answer.status),
        queue,
      ).toEqual(answers.map(() => 200));
    }
  });
});

describe('fairness settings', () => {
  it('refuses bad settings naming the field, and stores nothing', async () => {
    await topology(mq, 'fair-bad', []);
    const refused = async (body: Record<string, unknown>, field: string) => {
      const response = await mq.post('/api/v1/queues', { name: 'fair-bad-q', topic_name: 'fair-bad', ...body }, mq.adminKey);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors, JSON.stringify(body)).toEqual([expect.objectContaining({ field })]);
    };
    await refused({ fairness: 'round_robin' }, 'fairness');
    await refused({ fairness: 'by_key', max_in_flight_per_key: 0 }, 'max_in_flight_per_key');
    await refused({ fairness: 'by_key', max_in_flight_per_key: 10_001 }, 'max_in_flight_per_key');
    await refused({ max_in_flight_per_key: 3 }, 'max_in_flight_per_key');
    await refused({ fairness: 'by_key', max_priority: 5 }, 'fairness');
    expect((await mq.get('/api/v1/queues/fair-bad-q', mq.adminKey)).status).toBe(404);

    await topology(mq, 'fair-bad-2', [{ name: 'fair-bad-2-q', fairness: 'by_key' }]);
    for (const group_key of ['', 'x'.repeat(201), 7]) {
      const response = await mq.post('/api/v1/topics/fair-bad-2/messages', { payload: 'p', group_key }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.errors)).toContain('group_key');
    }
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = 'fair-bad-2-q'`);
    expect(rows[0].n).toBe(0);
  });

  it('shows the settings, changes max_in_flight_per_key live and refuses to change fairness', async () => {
    await topology(mq, 'fair-set', [{ name: 'fair-set-q', fairness: 'by_key', max_in_flight_per_key: 1 }, { name: 'fair-set-plain' }]);
    const queue = (await mq.get('/api/v1/queues/fair-set-q', mq.adminKey)).body;
    expect([queue.fairness, queue.max_in_flight_per_key]).toEqual(['by_key', 1]);
    const plain = (await mq.get('/api/v1/queues/fair-set-plain', mq.adminKey)).body;
    expect([plain.fairness, plain.max_in_flight_per_key]).toEqual(['none', null]);

    await publishMany('fair-set', 'k', 3);
    expect(await receive('fair-set-q', 10)).toHaveLength(1);
    const changed = await mq.patch('/api/v1/queues/fair-set-q', { max_in_flight_per_key: 3 }, mq.adminKey);
    expect(changed.status).toBe(200);
    expect(changed.body.max_in_flight_per_key).toBe(3);
    expect(await receive('fair-set-q', 10)).toHaveLength(2);

    for (const [name, body, field] of [
      ['fair-set-q', { fairness: 'none' }, 'fairness'],
      ['fair-set-plain', { fairness: 'by_key' }, 'fairness'],
      ['fair-set-plain', { max_in_flight_per_key: 2 }, 'max_in_flight_per_key'],
    ] as const) {
      const response = await mq.patch(`/api/v1/queues/${name}`, body, mq.adminKey);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errors).toEqual([expect.objectContaining({ field })]);
    }
    expect((await mq.get('/api/v1/queues/fair-set-plain', mq.adminKey)).body.fairness).toBe('none');
  });
});
