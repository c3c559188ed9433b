import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { settle, startPair } from '../realtime/support.js';
import { openStream, publishFrame, type TestStream } from './support.js';

let a: TestBroker;
let b: TestBroker;
const streams: TestStream[] = [];

beforeAll(async () => {
  [a, b] = await startPair({ MINIQUEUE_STREAM_RESUME_GRACE_MS: '200' });
  await topology(a, 'events', [{ name: 'audit' }]);
  await topology(a, 'race', [{ name: 'race', ack_timeout_seconds: 300 }]);
  await topology(a, 'keyed', [{ name: 'keyed', ack_timeout_seconds: 300 }]);
  await topology(a, 'scoped', [{ name: 'scoped-a' }, { name: 'scoped-b' }]);
});
afterAll(async () => {
  for (const stream of streams) stream.ws.terminate();
  await b?.stop();
  await a?.stop();
});

async function stream(mq: TestBroker, key: string, query?: string): Promise<TestStream> {
  const opened = await openStream(mq, { key, query });
  streams.push(opened);
  return opened;
}

describe('streams across two instances', () => {
  it('delivers to a subscriber on B what a stream publishes through A', async () => {
    const key = await a.clientKey('audit-both', ['publish:events', 'consume:audit']);
    const subscriber = await stream(b, key);
    subscriber.send({ type: 'subscribe', sub: 's', queue: 'audit', prefetch: 10 });
    await subscriber.next((frame) => frame.type === 'subscribed');
    const producer = await stream(a, key);
    producer.send(publishFrame(1, 'events', 'across'));
    const delivered = await subscriber.next((frame) => frame.type === 'deliver', 3000);
    expect(delivered.message).toMatchObject({ payload: 'across', queue: 'audit', status: 'UNACKED' });
    subscriber.send({ type: 'ack', ids: [delivered.message.message_id], ref: 1 });
    expect((await subscriber.next((frame) => frame.type === 'acked')).acked).toHaveLength(1);
    await Promise.all([subscriber.close(), producer.close()]);
  });

  it('gives each message to exactly one of 50 stream consumers over two instances, until all are acked', async () => {
    const key = await a.clientKey('racer', ['consume:race', 'publish:race']);
    const consumers = await Promise.all(Array.from({ length: 50 }, (_, i) => stream(i % 2 === 0 ? a : b, key, `instance=c${i}`)));
    for (const consumer of consumers) consumer.send({ type: 'subscribe', sub: 'r', queue: 'race', prefetch: 5 });
    await Promise.all(consumers.map((consumer) => consumer.next((frame) => frame.type === 'subscribed')));
    const producer = await stream(a, key);
    const total = 600;
    producer.send(Array.from({ length: total }, (_, i) => publishFrame(i + 1, 'race', `r${i}`)));
    await producer.collect((frame) => frame.type === 'confirm', total, 20_000);
    // Each consumer acks what it gets, so the rest keeps flowing to whoever has room.
    for (const consumer of consumers) {
      consumer.ws.on('message', (data) => {
        const parsed = JSON.parse(String(data));
        const ids = (Array.isArray(parsed) ? parsed : [parsed]).filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id);
        if (ids.length > 0) consumer.send({ type: 'ack', ids });
      });
      const early = consumer.frames.filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id);
      if (early.length > 0) consumer.send({ type: 'ack', ids: early });
    }
    await eventually(
      async () => {
        const { rows } = await a.pool.query(`SELECT count(*)::int AS n FROM message_acked WHERE queue_name = 'race'`);
        return rows[0].n === total;
      },
      'all acked',
      30_000,
    );
    const delivered = consumers.flatMap((consumer) => consumer.frames.filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id));
    expect(delivered).toHaveLength(total);
    expect(new Set(delivered).size).toBe(total);
    expect(consumers.filter((consumer) => consumer.frames.some((frame) => frame.type === 'deliver')).length).toBeGreaterThan(10);
    await Promise.all(consumers.map((consumer) => consumer.close()));
  });

  it('keeps ordering keys over streams: per key in order, one held at a time', async () => {
    const key = await a.clientKey('orderly', ['consume:keyed', 'publish:keyed']);
    const producer = await stream(a, key);
    const keys = ['k1', 'k2', 'k3'];
    const perKey = 20;
    producer.send(
      keys.flatMap((k, j) => Array.from({ length: perKey }, (_, i) => publishFrame(j * perKey + i + 1, 'keyed', `${k}:${i}`, { ordering_key: k }))),
    );
    await producer.collect((frame) => frame.type === 'confirm', keys.length * perKey);
    const consumers = await Promise.all([stream(a, key, 'instance=o1'), stream(b, key, 'instance=o2')]);
    const held = new Map<string, string>();
    const seen: string[] = [];
    for (const consumer of consumers) {
      consumer.ws.on('message', (data) => {
        const parsed = JSON.parse(String(data));
        for (const frame of Array.isArray(parsed) ? parsed : [parsed]) {
          if (frame.type !== 'deliver') continue;
          const [k] = frame.message.payload.split(':');
          expect(held.has(k)).toBe(false);
          held.set(k, frame.message.message_id);
          seen.push(frame.message.payload);
          setTimeout(() => {
            held.delete(k);
            consumer.send({ type: 'ack', ids: [frame.message.message_id] });
          }, 2);
        }
      });
      consumer.send({ type: 'subscribe', sub: 'k', queue: 'keyed', prefetch: 10 });
    }
    await eventually(() => seen.length === keys.length * perKey, 'every keyed message', 30_000);
    for (const k of keys) {
      const order = seen.filter((payload) => payload.startsWith(`${k}:`)).map((payload) => Number(payload.split(':')[1]));
      expect(order).toEqual(Array.from({ length: perKey }, (_, i) => i));
    }
  });
});

describe('watching the live feed across two instances', () => {
  it('a watch on B gets the events of what is published, consumed and acked through A', async () => {
    const key = await a.clientKey('watch-both', ['view']);
    const s = await stream(b, key);
    s.send({ type: 'watch', sub: 'w', queue: 'audit' });
    await s.next((frame) => frame.type === 'watching');
    const [id] = await publishOne(a, 'events', 'seen from b');
    const claimed = await a.post('/api/v1/queues/audit/consume', undefined, a.adminKey);
    expect((await a.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, a.adminKey)).status).toBe(200);
    const acked = await s.next((frame) => frame.type === 'event' && frame.event.eventType === 'ACKED', 5000);
    expect(acked.event).toMatchObject({ queueName: 'audit', detail: `Message ${claimed.body.message_id} acknowledged on audit` });
    const published = s.frames.filter((frame) => frame.type === 'event' && frame.event.eventType === 'PUBLISHED');
    expect(published.map((frame) => frame.event.detail)).toContain(`Message ${id} published to audit`);
    await s.close();
  });
});

describe('streams follow their credential', () => {
  it('narrowing a client ends its watches once it may not view, and only those', async () => {
    const key = await a.clientKey('narrowed-viewer', ['view', 'consume:scoped-a']);
    const s = await stream(b, key);
    s.send([
      { type: 'watch', sub: 'w', queue: 'scoped-a' },
      { type: 'subscribe', sub: 's', queue: 'scoped-a', prefetch: 5 },
    ]);
    await s.next((frame) => frame.type === 'watching');
    await s.next((frame) => frame.type === 'subscribed');
    expect((await a.patch('/api/v1/clients/narrowed-viewer', { scopes: ['consume:scoped-a'] }, a.adminKey)).status).toBe(200);
    expect(await s.next((frame) => frame.type === 'subscription_ended')).toMatchObject({ sub: 'w', status: 403, code: 'scope_required', scope: 'view' });
    const seen = s.frames.length;
    await publishOne(a, 'scoped', 'after narrowing');
    await s.next((frame) => frame.type === 'deliver', 5000, seen);
    await settle();
    expect(s.frames.slice(seen).filter((frame) => frame.type === 'event' || frame.type === 'subscription_ended')).toEqual([]);
    s.send({ type: 'watch', sub: 'again' });
    expect(await s.next((frame) => frame.type === 'error' && frame.sub === 'again')).toMatchObject({ status: 403, scope: 'view' });
    expect(s.ws.readyState).toBe(s.ws.OPEN);
  });

  it('narrowing a client ends the subscriptions it no longer allows and refuses its next publish', async () => {
    const key = await a.clientKey('narrowed', ['consume:scoped-a', 'consume:scoped-b', 'publish:scoped']);
    const s = await stream(b, key);
    s.send([
      { type: 'subscribe', sub: 'a', queue: 'scoped-a', prefetch: 5 },
      { type: 'subscribe', sub: 'b', queue: 'scoped-b', prefetch: 5 },
    ]);
    await s.collect((frame) => frame.type === 'subscribed', 2);
    s.send(publishFrame(1, 'scoped', 'before'));
    const deliveredB = await s.next((frame) => frame.type === 'deliver' && frame.sub === 'b');
    expect((await a.patch('/api/v1/clients/narrowed', { scopes: ['consume:scoped-a'] }, a.adminKey)).status).toBe(200);
    expect(await s.next((frame) => frame.type === 'subscription_ended' && frame.sub === 'b')).toMatchObject({ status: 403, code: 'scope_required' });
    // What the ended subscription held goes back at once: the credential may not settle it any more.
    await eventually(async () => (await statusOf(a, deliveredB.message.message_id))?.status === 'PENDING', 'released');
    s.send(publishFrame(2, 'scoped', 'after'));
    expect(await s.next((frame) => frame.type === 'reject' && frame.seq === 2)).toMatchObject({ status: 403, scope: 'publish:scoped' });
    expect(s.ws.readyState).toBe(s.ws.OPEN);
  });

  it('closes a revoked client’s streams with 1008 and gives back what they held at once', async () => {
    const key = await a.clientKey('revoked-streamer', ['consume:audit', 'publish:events']);
    const s = await stream(a, key);
    s.send({ type: 'subscribe', sub: 's', queue: 'audit', prefetch: 5 });
    await s.next((frame) => frame.type === 'subscribed');
    s.send(publishFrame(1, 'events', 'held'));
    const delivered = await s.next((frame) => frame.type === 'deliver');
    expect((await b.del('/api/v1/clients/revoked-streamer', a.adminKey)).status).toBe(204);
    expect((await s.closed).code).toBe(1008);
    await eventually(async () => (await statusOf(a, delivered.message.message_id))?.status === 'PENDING', 'released');
    await expect(openStream(a, { key, query: `resume=${s.welcome.resume_token}` })).rejects.toMatchObject({ status: 401 });
  });
});
