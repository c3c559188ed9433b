import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { hubOf, settle } from '../realtime/support.js';
import { openStream, type TestStream } from './support.js';

let mq: TestBroker;
let viewerKey: string;
const streams: TestStream[] = [];

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'orders', [{ name: 'billing' }, { name: 'shipping' }]);
  viewerKey = await mq.clientKey('watcher', ['view']);
});
afterAll(async () => {
  for (const stream of streams) stream.ws.terminate();
  await mq.stop();
});

async function watching(key: string, watch: object = { type: 'watch', sub: 'w' }): Promise<TestStream> {
  const stream = await openStream(mq, { key });
  streams.push(stream);
  stream.send(watch);
  await stream.next((frame) => frame.type === 'watching');
  return stream;
}

const events = (stream: TestStream, type?: string) =>
  stream.frames.filter((frame) => frame.type === 'event' && (type === undefined || frame.event.eventType === type)).map((frame) => frame.event);

describe('/ws/v1/stream: watching the live feed', () => {
  it('sends what /ws/monitor sends for HTTP traffic: PUBLISHED, CONSUMED, then ACKED', async () => {
    const s = await watching(viewerKey);
    const [id] = await publishOne(mq, 'orders', 'watched');
    const claimed = await mq.post('/api/v1/queues/billing/consume', undefined, mq.adminKey);
    expect(claimed.body.message_id).toBeDefined();
    expect((await mq.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, mq.adminKey)).status).toBe(200);
    const acked = await s.next((frame) => frame.type === 'event' && frame.event.eventType === 'ACKED');
    expect(acked).toMatchObject({ sub: 'w', event: { queueName: 'billing', count: 1, detail: `Message ${claimed.body.message_id} acknowledged on billing` } });
    expect(
      events(s, 'PUBLISHED')
        .map((event) => event.queueName)
        .sort(),
    ).toEqual(['billing', 'shipping']);
    expect(events(s, 'PUBLISHED')[0].detail).toContain(id);
    expect(events(s, 'CONSUMED')).toHaveLength(1);
    for (const event of events(s)) expect(Object.keys(event).sort()).toEqual(['count', 'detail', 'eventType', 'queueName', 'timestamp']);
  });

  it('with a queue, sends only that queue’s events', async () => {
    const s = await watching(viewerKey, { type: 'watch', sub: 'only-shipping', queue: 'shipping' });
    expect(s.frames.find((frame) => frame.type === 'watching')).toEqual({ type: 'watching', sub: 'only-shipping', queue: 'shipping' });
    await publishOne(mq, 'orders', 'filtered');
    await s.next((frame) => frame.type === 'event');
    await settle();
    expect(events(s).map((event) => [event.eventType, event.queueName])).toEqual([['PUBLISHED', 'shipping']]);
  });

  it('refuses a watch without the view scope, as /ws/monitor refuses its handshake; admin may', async () => {
    const producer = await mq.clientKey('no-view', ['publish:orders', 'consume:billing']);
    const s = await openStream(mq, { key: producer });
    streams.push(s);
    s.send({ type: 'watch', sub: 'w' });
    expect(await s.next((frame) => frame.type === 'error')).toMatchObject({ sub: 'w', status: 403, code: 'scope_required', scope: 'view' });
    await publishOne(mq, 'orders', 'unseen');
    await settle();
    expect(events(s)).toEqual([]);
    await watching(mq.adminKey);
  });

  it('shares the names of subscriptions, and takes a watch sent again as the same one', async () => {
    const s = await watching(mq.adminKey);
    s.send([
      { type: 'watch', sub: 'w' },
      { type: 'subscribe', sub: 'w', queue: 'billing', prefetch: 1 },
      { type: 'watch', sub: 'w', queue: 'billing' },
    ]);
    await s.collect((frame) => frame.type === 'watching', 2);
    const refused = await s.collect((frame) => frame.type === 'error', 2);
    for (const error of refused) expect(error).toMatchObject({ sub: 'w', status: 400, errors: [{ field: 'sub' }] });
  });

  it('sends nothing more after unwatch', async () => {
    const s = await watching(viewerKey);
    s.send({ type: 'unwatch', sub: 'w' });
    await s.next((frame) => frame.type === 'unwatched');
    await publishOne(mq, 'orders', 'after unwatch');
    await settle();
    expect(events(s)).toEqual([]);
    s.send({ type: 'unwatch', sub: 'w' });
    expect(await s.next((frame) => frame.type === 'error')).toMatchObject({ sub: 'w', code: 'route_not_found' });
  });

  it('drops what is over the stream’s output cap, even in one burst, and says how many', async () => {
    const s = await watching(viewerKey);
    const hub = hubOf(mq);
    // 1,000 events of 4 KB in one turn: within the feed's rate, four times the stream's 1 MiB cap.
    const timestamp = new Date().toISOString();
    const burst = 1000;
    hub.monitors.publish(
      Array.from({ length: burst }, (_, i) => ({ eventType: 'ACKED', queueName: 'billing', detail: `${i} ${'x'.repeat(4096)}`, count: 1, timestamp })),
    );
    await s.collect((frame) => frame.type === 'event', 1);
    await settle();
    hub.monitors.runOnce(Date.now() + 1000);
    const marker = await s.next((frame) => frame.type === 'event' && frame.event.eventType === 'EVENTS_DROPPED');
    const delivered = events(s, 'ACKED').length;
    expect(delivered).toBeGreaterThan(0);
    expect(delivered).toBeLessThanOrEqual(Math.ceil((1024 * 1024) / 4096));
    expect(delivered + marker.event.count).toBe(burst);
    expect(marker.event).toMatchObject({ queueName: null, detail: `${marker.event.count} events dropped` });
  });
});
