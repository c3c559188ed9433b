import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { startPair } from '../realtime/support.js';

let a: TestBroker;
let b: TestBroker;
let key: string;

const limited = async (name: string, rate: number) => {
  await topology(a, name, []);
  const created = await a.post('/api/v1/queues', { name, topic_name: name, max_deliveries_per_second: rate }, a.adminKey);
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ max_deliveries_per_second: rate, single_active_consumer: false });
};

beforeAll(async () => {
  [a, b] = await startPair();
  await limited('paced', 50);
  await limited('shared', 40);
  await limited('slow', 2);
  await topology(a, 'plain', []);
  await a.post('/api/v1/queues', { name: 'plain', topic_name: 'plain' }, a.adminKey);
  key = await a.clientKey('paced-consumers', ['publish:*', 'consume:*']);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const publish = async (topic: string, count: number) => {
  const response = await a.post(`/api/v1/topics/${topic}/messages/batch`, { messages: Array.from({ length: count }, (_, i) => ({ payload: `m${i}` })) }, key);
  expect(response.status).toBe(201);
};
const receive = (mq: TestBroker, queue: string, max: number, wait: number, instance = 'one') =>
  mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: max, wait_seconds: wait }, key, { 'MiniQueue-Instance': instance });

describe('max_deliveries_per_second', () => {
  it('gives a claim for 100 what the bucket allows, and an empty answer (not an error) without a token', async () => {
    await publish('paced', 200);
    const started = Date.now();
    const first = await receive(a, 'paced', 100, 0);
    expect(first.status).toBe(200);
    // A full bucket holds a tenth of a second's worth: 5 at 50/s.
    expect(first.body.messages).toHaveLength(5);
    // Right after, the bucket has refilled by what the round trips took: a token per 20 ms.
    const next = await receive(a, 'paced', 100, 0);
    expect(next.status).toBe(200);
    expect(next.body.messages.length).toBeLessThanOrEqual(1 + Math.ceil((50 * (Date.now() - started)) / 1000));
  });

  it('answers a long poll when a token is free', async () => {
    await publish('slow', 3);
    expect((await receive(a, 'slow', 1, 0)).body.messages).toHaveLength(1);
    const started = Date.now();
    const waited = await receive(b, 'slow', 1, 5);
    expect(waited.body.messages).toHaveLength(1);
    // One token every 500 ms at 2/s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('holds the rate across consumers on two instances that could go much faster', async () => {
    await publish('shared', 500);
    const deliveredAt: number[] = [];
    const started = Date.now();
    const until = started + 3_000;
    const consumer = async (mq: TestBroker, instance: string) => {
      while (Date.now() < until) {
        const response = await receive(mq, 'shared', 10, 1, instance);
        for (const _ of response.body.messages) deliveredAt.push(Date.now());
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, i) => consumer(i % 2 === 0 ? a : b, `c${i}`)));
    const inWindow = deliveredAt.filter((at) => at <= until).length;
    const seconds = (until - started) / 1000;
    // The bucket starts with at most 4 tokens (40/s); then 40 a second, never more.
    expect(inWindow).toBeLessThanOrEqual(4 + 40 * seconds + 2);
    // And the waiting consumers take the tokens as they come.
    expect(inWindow).toBeGreaterThanOrEqual(0.8 * 40 * seconds);
  }, 20_000);

  it('refuses bad settings with a 400 naming the field', async () => {
    for (const [field, value] of [
      ['max_deliveries_per_second', 0],
      ['max_deliveries_per_second', 1.5],
      ['max_deliveries_per_second', 100_001],
      ['single_active_consumer', 'yes'],
    ] as const) {
      const response = await a.post('/api/v1/queues', { name: 'never', topic_name: 'plain', [field]: value }, a.adminKey);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      const patched = await a.patch('/api/v1/queues/plain', { [field]: value }, a.adminKey);
      expect(patched.status).toBe(400);
    }
  });

  it('applies a limit set on a live queue from the next claim, and lifts it again', async () => {
    await publish('plain', 30);
    expect((await receive(a, 'plain', 20, 0)).body.messages).toHaveLength(20);
    const patched = await a.patch('/api/v1/queues/plain', { max_deliveries_per_second: 10 }, a.adminKey);
    expect(patched.body).toMatchObject({ max_deliveries_per_second: 10 });
    // Both instances see it at once: the plain claim reads the setting.
    expect((await receive(b, 'plain', 20, 0)).body.messages).toHaveLength(1);
    expect((await a.patch('/api/v1/queues/plain', { max_deliveries_per_second: null }, a.adminKey)).body.max_deliveries_per_second).toBeNull();
    expect((await receive(b, 'plain', 20, 0)).body.messages).toHaveLength(9);
  });
});
