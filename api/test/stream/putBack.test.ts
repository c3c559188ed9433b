import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { afterPutBacks, countsOf, PROMPTLY_MS, waitingConsumer, withoutRecheck } from '../helpers/putBack.js';
import { openStream, type TestStream } from './support.js';

const GRACE_MS = 300;
let mq: TestBroker;
let holderKey: string;
let waiterKey: string;
let scraper: string;
const streams: TestStream[] = [];

const ENDINGS = {
  'closed by its client (1000)': async (s: TestStream) => {
    s.ws.close(1000);
    expect((await s.closed).code).toBe(1000);
  },
  'closed by the broker for refused frames (4400)': async (s: TestStream) => {
    for (let i = 0; i < 25; i += 1) s.send({ type: 'nonsense' });
    expect((await s.closed).code).toBe(4400);
  },
  'gone without a close, after its resume grace': async (s: TestStream) => {
    s.ws.terminate();
    await s.closed;
  },
} as const;
const queueOf = (ending: string) => `held-${Object.keys(ENDINGS).indexOf(ending)}`;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_STREAM_RESUME_GRACE_MS: String(GRACE_MS) } });
  const queues = [...Object.keys(ENDINGS).map(queueOf), 'held-keyed', 'held-elsewhere'];
  for (const queue of queues) await topology(mq, queue, [{ name: queue, ack_timeout_seconds: 60 }]);
  holderKey = await mq.clientKey(
    'held-holder',
    queues.map((queue) => `consume:${queue}`),
  );
  waiterKey = await mq.clientKey(
    'held-waiter',
    queues.map((queue) => `consume:${queue}`),
  );
  scraper = await mq.clientKey('held-prometheus', ['metrics']);
  await withoutRecheck(mq);
});
afterAll(async () => {
  for (const stream of streams) stream.ws.terminate();
  await mq.stop();
});

async function subscribed(key: string, queue: string): Promise<TestStream> {
  const s = await openStream(mq, { key });
  streams.push(s);
  s.send({ type: 'subscribe', sub: 's', queue, prefetch: 1 });
  await s.next((frame) => frame.type === 'subscribed');
  return s;
}

describe('what a stream held goes back through the broker when it ends', () => {
  for (const [ending, end] of Object.entries(ENDINGS)) {
    it(`${ending}: a subscription waiting on the queue gets it at once`, async () => {
      const queue = queueOf(ending);
      const holding = await subscribed(holderKey, queue);
      const [id] = await publishOne(mq, queue, 'held, never settled');
      await holding.next((frame) => frame.type === 'deliver' && frame.message.message_id === id);
      const waitersBefore = mq.broker.context.waiters.size();
      const waiting = await subscribed(waiterKey, queue);
      await eventually(() => mq.broker.context.waiters.size() > waitersBefore, 'the subscription to wait');
      await end(holding);
      const putBackFrom = Date.now();
      const delivered = await waiting.next((frame) => frame.type === 'deliver', 10_000);
      expect(delivered.message).toMatchObject({ message_id: id, retry_count: 0 });
      expect(Date.now() - putBackFrom).toBeLessThan(PROMPTLY_MS + (ending.includes('grace') ? GRACE_MS : 0));
      waiting.send({ type: 'ack', ids: [id], ref: 1 });
      expect(await waiting.next((frame) => frame.type === 'acked')).toMatchObject({ acked: [id] });
      expect(await statusOf(mq, id)).toMatchObject({ status: 'ACKED' });
      expect(await countsOf(mq, queue, scraper)).toEqual(afterPutBacks(2, 1));
    });
  }

  it('a message of an ordering key goes back at the head of its key: the next consumer gets it first, then the one behind it', async () => {
    const holding = await subscribed(holderKey, 'held-keyed');
    const publish = async (payload: string) =>
      (await mq.post('/api/v1/topics/held-keyed/messages', { payload, ordering_key: 'order-7' }, mq.adminKey)).body.message_ids[0] as string;
    const first = await publish('first');
    const second = await publish('second');
    await holding.next((frame) => frame.type === 'deliver' && frame.message.message_id === first);
    expect(await statusOf(mq, second)).toMatchObject({ status: 'BLOCKED' });
    const waitersBefore = mq.broker.context.waiters.size();
    const waiting = await subscribed(waiterKey, 'held-keyed');
    await eventually(() => mq.broker.context.waiters.size() > waitersBefore, 'the subscription to wait');
    holding.ws.close(1000);
    await holding.closed;
    const putBackFrom = Date.now();
    const again = await waiting.next((frame) => frame.type === 'deliver', 10_000);
    expect(again.message).toMatchObject({ message_id: first, retry_count: 0 });
    expect(Date.now() - putBackFrom).toBeLessThan(PROMPTLY_MS);
    // One held per key: the second waits for the first to be settled.
    expect(await statusOf(mq, second)).toMatchObject({ status: 'BLOCKED' });
    waiting.send({ type: 'ack', ids: [first], ref: 1 });
    const next = await waiting.next((frame) => frame.type === 'deliver' && frame.message.message_id !== first, 10_000);
    expect(next.message).toMatchObject({ message_id: second });
    waiting.send({ type: 'ack', ids: [second], ref: 2 });
    await waiting.next((frame) => frame.type === 'acked' && frame.ref === 2);
  });

  it('another instance hears of it through the notifications: its waiting long poll gets the message at once', async () => {
    const other = await startTestBroker({ databaseUrl: mq.databaseUrl, adminKey: mq.adminKey, listen: true });
    try {
      await withoutRecheck(other);
      const holding = await subscribed(holderKey, 'held-elsewhere');
      const [id] = await publishOne(mq, 'held-elsewhere', 'held here, wanted there');
      await holding.next((frame) => frame.type === 'deliver' && frame.message.message_id === id);
      const waiting = await waitingConsumer(other, waiterKey, 'held-elsewhere');
      holding.ws.close(1000);
      await holding.closed;
      const putBackFrom = Date.now();
      const got = await waiting.answered;
      expect(got).toMatchObject({ status: 200, id });
      expect(got.at - putBackFrom).toBeLessThan(PROMPTLY_MS);
      expect((await other.post(`/api/v1/messages/${id}/ack`, undefined, waiterKey)).status).toBe(200);
    } finally {
      await other.stop();
    }
  });
});
