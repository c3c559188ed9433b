import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { statusOf, topology } from '../helpers/fixtures.js';
import { sample, scrape } from '../helpers/metrics.js';
import { startReceiver, type Receiver } from '../push/receiver.js';
import { PUSH_ENV } from '../push/support.js';
import { openStream } from '../stream/support.js';

// The message counters count from the broker's change stream, not in the routes: what streams
// and the push worker do shows up as what HTTP does.
let mq: TestBroker;
let receiver: Receiver;
let scraper: string;
beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: PUSH_ENV });
  receiver = await startReceiver((request, response) => {
    response.statusCode = request.path === '/fail' ? 500 : 200;
    response.end();
  });
  scraper = await mq.clientKey('prometheus', ['metrics']);
});
afterAll(async () => {
  await receiver.close();
  await mq.stop();
});

const movedBetween = (before: string, after: string) => (series: string) => sample(after, series) - sample(before, series);

describe('message counters on every path', () => {
  it("count a stream's publishes, deliveries, acks and nacks", async () => {
    await topology(mq, 's', [{ name: 's-q', max_retries: 0 }]);
    const before = await scrape(mq, scraper);
    const stream = await openStream(mq, { key: mq.adminKey });
    try {
      stream.send([
        { type: 'publish', seq: 1, topic: 's', payload: 'a' },
        { type: 'publish', seq: 2, topic: 's', payload: 'b' },
      ]);
      await stream.collect((frame) => frame.type === 'confirm', 2);
      stream.send({ type: 'subscribe', sub: 'x', queue: 's-q', prefetch: 2 });
      const [first, second] = (await stream.collect((frame) => frame.type === 'deliver', 2)).map((frame) => frame.message.message_id);
      stream.send([
        { type: 'ack', ids: [first], ref: 1 },
        { type: 'nack', id: second, requeue: false, ref: 2 },
      ]);
      await stream.next((frame) => frame.type === 'acked');
      await stream.next((frame) => frame.type === 'nacked');
    } finally {
      await stream.close();
    }
    const moved = movedBetween(before, await scrape(mq, scraper));
    expect(moved('miniqueue_messages_published_total{queue="s-q"}')).toBe(2);
    expect(moved('miniqueue_messages_consumed_total{queue="s-q"}')).toBe(2);
    expect(moved('miniqueue_messages_acked_total{queue="s-q"}')).toBe(1);
    expect(moved('miniqueue_messages_dead_total{queue="s-q"}')).toBe(1);
    expect(moved('miniqueue_publish_to_ack_seconds_count{queue="s-q"}')).toBe(1);
  });

  it("count the push worker's claims, acks and nacks", async () => {
    await topology(mq, 'p', [{ name: 'p-ok' }, { name: 'p-fail', max_retries: 0 }]);
    for (const [queue, path] of [
      ['p-ok', '/ok'],
      ['p-fail', '/fail'],
    ]) {
      const set = await mq.request('PUT', `/api/v1/queues/${queue}/push`, { body: { url: `${receiver.url}${path}` }, key: mq.adminKey });
      expect(set.status).toBe(201);
    }
    await mq.broker.core.pushWorker.refresh();
    const before = await scrape(mq, scraper);
    const published = await mq.post('/api/v1/topics/p/messages', { payload: 'pushed' }, mq.adminKey);
    const idOf = (queue: string): string => published.body.message_ids[published.body.queues.indexOf(queue)];
    const [ok, failing] = [idOf('p-ok'), idOf('p-fail')];
    await eventually(async () => (await statusOf(mq, ok))?.status === 'ACKED', 'the pushed message acked');
    await eventually(async () => (await statusOf(mq, failing))?.status === 'DEAD', 'the refused message dead');
    const moved = movedBetween(before, await scrape(mq, scraper));
    expect(moved('miniqueue_messages_consumed_total{queue="p-ok"}')).toBe(1);
    expect(moved('miniqueue_messages_acked_total{queue="p-ok"}')).toBe(1);
    expect(moved('miniqueue_messages_consumed_total{queue="p-fail"}')).toBe(1);
    expect(moved('miniqueue_messages_dead_total{queue="p-fail"}')).toBe(1);
  });
});
