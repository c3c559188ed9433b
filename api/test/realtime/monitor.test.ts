import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { publishOne } from '../helpers/fixtures.js';
import { eventually, hubOf, openSocket, settle, startPair, type TestSocket } from './support.js';

let a: TestBroker;
let b: TestBroker;
let viewerKey: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  [a, b] = await startPair();
  viewerKey = await a.clientKey('grafana-ish', ['view']);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await b?.stop();
  await a?.stop();
});

async function monitor(mq: TestBroker): Promise<TestSocket> {
  const socket = await openSocket(mq, '/ws/monitor', { key: viewerKey });
  open.push(socket);
  return socket;
}

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const kinds = (socket: TestSocket) => socket.frames.map((event) => `${event.eventType} ${event.queueName}`);

describe('/ws/monitor', () => {
  it('shows every transition, from both instances, to dashboards on both instances', async () => {
    const onA = await monitor(a);
    const onB = await monitor(b);

    await a.post('/api/v1/topics', { name: 'orders' }, a.adminKey);
    await b.post('/api/v1/queues', { name: 'email', topic_name: 'orders', max_retries: 3 }, b.adminKey);
    const worker = await a.clientKey('worker', ['consume:email']);
    const [first] = await publishOne(a, 'orders', 'one');
    const [second] = await publishOne(b, 'orders', 'two');
    await b.post('/api/v1/queues/email/consume', undefined, worker);
    await a.post(`/api/v1/messages/${first}/ack`, undefined, worker);
    await a.post('/api/v1/queues/email/consume', undefined, worker);
    await b.post(`/api/v1/messages/${second}/nack`, { requeue: false }, worker);
    await a.post(`/api/v1/dashboard/dlq/${second}/replay`, undefined, a.adminKey);

    const expected = [
      'CREATED null',
      'CREATED email',
      'PUBLISHED email',
      'PUBLISHED email',
      'CONSUMED email',
      'ACKED email',
      'CONSUMED email',
      'NACKED email',
      'DEAD email',
      'REPLAYED email',
    ];
    for (const socket of [onA, onB]) {
      await eventually(() => socket.frames.length >= expected.length, 'every event');
      // Each instance sends what it did every 100 ms, so the two instances' events interleave by
      // those windows, not one by one.
      expect(kinds(socket).sort()).toEqual([...expected].sort());
      for (const event of socket.frames) {
        expect(Object.keys(event).sort()).toEqual(['count', 'detail', 'eventType', 'queueName', 'timestamp']);
        expect(event.timestamp).toMatch(RFC3339_UTC);
      }
    }
    expect(onA.frames.some((event) => event.eventType === 'PUBLISHED' && event.detail.includes(first))).toBe(true);
    expect(onA.frames[0].detail).toBe('Topic orders created');
  });

  it('sums up a big statement instead of naming every message', async () => {
    const socket = await monitor(a);
    const messages = Array.from({ length: 100 }, (_, i) => ({ payload: `m${i}` }));
    expect((await b.post('/api/v1/topics/orders/messages/batch', { messages }, b.adminKey)).status).toBe(201);
    await eventually(() => socket.frames.length >= 1, 'the event');
    await settle();
    expect(socket.frames).toEqual([
      expect.objectContaining({ eventType: 'PUBLISHED', queueName: 'email', detail: '100 messages published to email', count: 100 }),
    ]);
  });

  it('drops what a dashboard cannot take in a burst, says how many, and never queues them', async () => {
    const socket = await monitor(a);
    const hub = hubOf(a);
    // 5000 events in one go, far more than one dashboard is sent per second.
    const timestamp = new Date().toISOString();
    hub.monitors.publish(
      Array.from({ length: 5000 }, (_, i) => ({
        eventType: 'ACKED',
        queueName: 'email',
        detail: `Message id-${i} acknowledged on email`,
        count: 1,
        timestamp,
      })),
    );
    hub.monitors.runOnce(Date.now() + 1000);

    const marker = () => socket.frames.find((event) => event.eventType === 'EVENTS_DROPPED');
    await eventually(() => marker() !== undefined, 'the dropped-events marker');
    const delivered = socket.frames.filter((event) => event.eventType === 'ACKED').length;
    const dropped = marker().count;
    expect(delivered).toBeGreaterThan(0);
    expect(delivered).toBeLessThan(5000);
    expect(delivered + dropped).toBe(5000);
    expect(marker().queueName).toBeNull();
  });
});
