import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { afterPutBacks, countsOf, PROMPTLY_MS, waitingConsumer, withoutRecheck } from '../helpers/putBack.js';
import { startReceiver, type Receiver } from './receiver.js';
import { PUSH_ENV } from './support.js';

let mq: TestBroker;
let receiver: Receiver;
let consumer: string;
let scraper: string;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: PUSH_ENV });
  // The endpoint takes the message and never answers: the push is in flight when the worker stops.
  receiver = await startReceiver(() => undefined);
  await topology(mq, 'pushed-back', [{ name: 'pushed-back' }]);
  consumer = await mq.clientKey('pushed-back-consumer', ['consume:pushed-back']);
  scraper = await mq.clientKey('pushed-back-prometheus', ['metrics']);
  await withoutRecheck(mq);
});
afterAll(async () => {
  await receiver.close();
  await mq.stop();
});

describe('a push worker that stops with a push in flight', () => {
  it('gives the message back through the broker: a consumer waiting on the queue gets it at once', async () => {
    const set = await mq.request('PUT', '/api/v1/queues/pushed-back/push', { body: { url: `${receiver.url}/hang` }, key: mq.adminKey });
    expect(set.status).toBe(201);
    const pusher = mq.broker.core.pushWorker;
    await pusher.refresh();
    const [id] = await publishOne(mq, 'pushed-back', 'half pushed');
    await eventually(() => receiver.received.some((request) => request.headers['miniqueue-message-id'] === id), 'the push to arrive');
    expect(await statusOf(mq, id)).toMatchObject({ status: 'UNACKED', retry_count: 0 });
    const waiting = await waitingConsumer(mq, consumer, 'pushed-back');
    const putBackFrom = Date.now();
    await pusher.stop();
    const got = await waiting.answered;
    expect(got).toMatchObject({ status: 200, id });
    expect(got.at - putBackFrom).toBeLessThan(PROMPTLY_MS);
    expect(await statusOf(mq, id)).toMatchObject({ status: 'UNACKED', retry_count: 0, consumer_id: 'pushed-back-consumer' });
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer)).status).toBe(200);
    expect(await countsOf(mq, 'pushed-back', scraper)).toEqual(afterPutBacks(2, 1));
  });
});
