import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { eventually, startPair } from '../realtime/support.js';
import { openStream, publishFrame } from '../stream/support.js';

let a: TestBroker;
let b: TestBroker;
let key: string;

beforeAll(async () => {
  [a, b] = await startPair({ MINIQUEUE_STREAM_RESUME_GRACE_MS: '100' });
  for (const name of ['solo', 'handover', 'streamed']) {
    await topology(a, name, []);
    const created = await a.post('/api/v1/queues', { name, topic_name: name, single_active_consumer: true, ack_timeout_seconds: 300 }, a.adminKey);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ single_active_consumer: true, max_deliveries_per_second: null });
  }
  key = await a.clientKey('sac-consumers', ['publish:solo', 'consume:solo', 'publish:handover', 'consume:handover', 'publish:streamed', 'consume:streamed']);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const receive = (mq: TestBroker, queue: string, instance: string, wait: number, max = 5) =>
  mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: max, wait_seconds: wait }, key, { 'MiniQueue-Instance': instance });
const publish = async (mq: TestBroker, topic: string, count: number) => {
  const response = await mq.post(`/api/v1/topics/${topic}/messages/batch`, { messages: Array.from({ length: count }, (_, i) => ({ payload: `m${i}` })) }, key);
  expect(response.status).toBe(201);
};

describe('single active consumer', () => {
  it('gives every message to one consumer while it keeps polling, across 8 consumers on two instances', async () => {
    await publish(a, 'solo', 120);
    const receivedBy = new Map<string, number>();
    let delivered = 0;
    const consumer = async (mq: TestBroker, instance: string) => {
      while (delivered < 120) {
        const response = await receive(mq, 'solo', instance, 1);
        const messages = response.body.messages as { message_id: string }[];
        if (messages.length === 0) continue;
        receivedBy.set(instance, (receivedBy.get(instance) ?? 0) + messages.length);
        delivered += messages.length;
        const acked = await mq.post('/api/v1/messages/ack', { message_ids: messages.map((m) => m.message_id) }, key, { 'MiniQueue-Instance': instance });
        expect(acked.status).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => consumer(i % 2 === 0 ? a : b, `c${i}`)));
    expect(delivered).toBe(120);
    // Without the gate every consumer of both instances gets a share.
    expect([...receivedBy.keys()]).toHaveLength(1);
  }, 30_000);

  it('hands over to a consumer on the other instance once the active one stops polling', async () => {
    await publish(a, 'handover', 1);
    const first = await receive(a, 'handover', 'first', 0);
    expect(first.body.messages).toHaveLength(1);
    expect((await a.post('/api/v1/messages/ack', { message_ids: [first.body.messages[0].message_id] }, key, { 'MiniQueue-Instance': 'first' })).status).toBe(
      200,
    );
    const stoppedAt = Date.now();
    await publish(a, 'handover', 1);
    // The turn is still first's: the next one asking on the other instance waits.
    const second = receive(b, 'handover', 'second', 15);
    const early = await Promise.race([second.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 3_000))]);
    expect(early).toBe('waiting');
    const taken = await second;
    const tookMs = Date.now() - stoppedAt;
    expect(taken.body.messages).toHaveLength(1);
    // The documented bound: 5 s idle, then at most a second's recheck (plus this machine's slack).
    expect(tookMs).toBeGreaterThanOrEqual(4_500);
    expect(tookMs).toBeLessThan(8_000);
    // And the first is now the one that waits.
    expect((await receive(a, 'handover', 'first', 0)).body.messages).toEqual([]);
  }, 30_000);

  it('hands over within about a second when the active stream closes, with what it held', async () => {
    const holder = await openStream(a, { key, query: 'instance=holder' });
    holder.send({ type: 'subscribe', sub: 's', queue: 'streamed', prefetch: 10 });
    await holder.next((frame) => frame.type === 'subscribed');
    const producer = await openStream(a, { key });
    producer.send(Array.from({ length: 3 }, (_, i) => publishFrame(i + 1, 'streamed', `s${i}`)));
    await producer.collect((frame) => frame.type === 'confirm', 3);
    await holder.collect((frame) => frame.type === 'deliver', 3);

    const next = await openStream(b, { key, query: 'instance=next' });
    const deliveries: string[] = [];
    next.ws.on('message', (data) => {
      const parsed = JSON.parse(String(data));
      for (const frame of Array.isArray(parsed) ? parsed : [parsed]) if (frame.type === 'deliver') deliveries.push(frame.message.payload);
    });
    next.send({ type: 'subscribe', sub: 's', queue: 'streamed', prefetch: 10 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(deliveries).toEqual([]);

    const closedAt = Date.now();
    await holder.close();
    await eventually(() => deliveries.length === 3, 'the held messages reach the next consumer', 5_000);
    expect(Date.now() - closedAt).toBeLessThan(3_000);
    expect(deliveries.sort()).toEqual(['s0', 's1', 's2']);
    await Promise.all([next.close(), producer.close()]);
  }, 30_000);
});
