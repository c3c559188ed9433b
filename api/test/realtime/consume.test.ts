import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { eventually, hubOf, openSocket, rotationReady, settle, startPair, type TestSocket } from './support.js';

let a: TestBroker;
let b: TestBroker;
const stopped = new Set<TestBroker>();
let consumerKey: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  [a, b] = await startPair();
  await topology(a, 'orders', [{ name: 'bulk' }, { name: 'spread' }, { name: 'stock' }]);
  await topology(a, 'mail', [{ name: 'email' }]);
  await topology(a, 'late', [{ name: 'late' }]);
  await topology(a, 'keyed', [{ name: 'keyed' }]);
  consumerKey = await a.clientKey('mailer', ['consume:*']);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  for (const mq of [b, a]) if (!stopped.has(mq)) await mq.stop();
});

async function consumer(mq: TestBroker, queue: string): Promise<TestSocket> {
  const socket = await openSocket(mq, `/ws/consume?queue=${queue}`, { key: consumerKey });
  open.push(socket);
  return socket;
}

const close = async (socket: TestSocket) => {
  socket.ws.close();
  await socket.closed;
};

describe('/ws/consume across instances', () => {
  it('tells a consumer on instance B about a publish taken by instance A: the id, never the payload', async () => {
    const socket = await consumer(b, 'stock');
    await rotationReady([a, b], 'stock', 1);

    const [, , stockId] = await publishOne(a, 'orders', '{"secret":"card number"}'); // queues by name

    await eventually(() => socket.frames.length === 1, 'the notification');
    expect(socket.frames[0]).toEqual({ queue: 'stock', message_id: stockId });
    expect(JSON.stringify(socket.frames)).not.toContain('card number');
    const claimed = await b.post('/api/v1/queues/stock/consume', undefined, consumerKey);
    expect(claimed.body.message_id).toBe(stockId);
    await close(socket);
  });

  it('tells of a message stored behind its ordering key only once the message before it is acked', async () => {
    const socket = await consumer(b, 'keyed');
    await rotationReady([a, b], 'keyed', 1);
    const publish = async (payload: string) =>
      (await a.post('/api/v1/topics/keyed/messages', { payload, ordering_key: 'k' }, a.adminKey)).body.message_ids[0] as string;

    const head = await publish('head');
    await eventually(() => socket.frames.length === 1, 'the head');
    const next = await publish('next');
    await settle();
    expect(socket.frames.map((frame) => frame.message_id)).toEqual([head]);

    const claimed = await b.post('/api/v1/queues/keyed/consume', undefined, consumerKey);
    expect(claimed.body.message_id).toBe(head);
    expect((await b.post(`/api/v1/messages/${head}/ack`, undefined, consumerKey)).status).toBe(200);
    await eventually(() => socket.frames.length === 2, 'the next message, now at the head');
    expect(socket.frames[1]).toEqual({ queue: 'keyed', message_id: next });
    await close(socket);
  });

  it('notifies each of 30 messages exactly once, round-robin over 3 sockets on 2 instances', async () => {
    const sockets = [await consumer(a, 'spread'), await consumer(a, 'spread'), await consumer(b, 'spread')];
    await rotationReady([a, b], 'spread', 3);

    const published: string[] = [];
    for (let i = 0; i < 30; i += 1) {
      const via = i % 2 === 0 ? a : b;
      const ids = await publishOne(via, 'orders', `m${i}`);
      published.push(ids[1]); // queues by name: bulk, spread, stock
    }

    const received = () => sockets.flatMap((socket) => socket.frames.map((frame) => frame.message_id as string));
    await eventually(() => received().length >= 30, '30 notifications');
    await settle();
    expect(received()).toHaveLength(30);
    expect(new Set(received())).toEqual(new Set(published));
    for (const socket of sockets) {
      expect(socket.frames.every((frame) => frame.queue === 'spread')).toBe(true);
      expect(Math.abs(socket.frames.length - 10)).toBeLessThanOrEqual(1);
    }
    await Promise.all(sockets.map(close));
  });

  it('notifies every message of a 500-message batch, beyond what one notification can name', async () => {
    const sockets = [await consumer(a, 'bulk'), await consumer(b, 'bulk')];
    await rotationReady([a, b], 'bulk', 2);

    const messages = Array.from({ length: 500 }, (_, i) => ({ payload: `b${i}` }));
    const response = await a.post('/api/v1/topics/orders/messages/batch', { messages }, a.adminKey);
    expect(response.status).toBe(201);
    const bulkIds = new Set<string>(response.body.results.map((result: { message_ids: string[] }) => result.message_ids[0]));

    const received = () => sockets.flatMap((socket) => socket.frames.map((frame) => frame.message_id as string));
    await eventually(() => received().length >= 500, '500 notifications');
    await settle();
    expect(received()).toHaveLength(500);
    expect(new Set(received())).toEqual(bulkIds);
    expect(sockets[0].frames).toHaveLength(250);
    await Promise.all(sockets.map(close));
  });

  it('notifies again when a message becomes available again: nack, delay, lease expiry, replay', async () => {
    const socket = await consumer(b, 'email');
    await rotationReady([a, b], 'email', 1);
    const ids = () => socket.frames.map((frame) => frame.message_id as string);

    const [emailId] = await publishOne(a, 'mail', 'x');
    await eventually(() => ids().length === 1, 'the publish');
    await a.post('/api/v1/queues/email/consume', undefined, consumerKey);
    await a.post(`/api/v1/messages/${emailId}/nack`, { requeue: true, delay_seconds: 1 }, consumerKey);
    // Delayed: the notification comes once the message is claimable, not at the nack.
    await eventually(() => ids().length === 2, 'the delayed redelivery');
    const reclaimed = await b.post('/api/v1/queues/email/consume', undefined, consumerKey);
    expect(reclaimed.status).toBe(200);
    expect(reclaimed.body.message_id).toBe(emailId);

    await a.post(`/api/v1/messages/${emailId}/nack`, { requeue: false }, consumerKey);
    const replayed = await a.post(`/api/v1/dashboard/dlq/${emailId}/replay`, undefined, a.adminKey);
    expect(replayed.status).toBe(200);
    await eventually(() => ids().length === 3, 'the replay');
    expect(ids()).toEqual([emailId, emailId, emailId]);

    await b.post('/api/v1/queues/email/consume', undefined, consumerKey);
    await a.pool.query(`UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [emailId]);
    await leaseSweeper(a.pool, a.broker.context.changes).runOnce();
    await eventually(() => ids().length === 4, 'the redelivery after lease expiry');
    expect(ids()).toEqual([emailId, emailId, emailId, emailId]);
    await close(socket);
  });

  it("drops a dead instance's sockets from the rotation, and only those", async () => {
    const socket = await consumer(a, 'late');
    await rotationReady([a, b], 'late', 1);
    // An instance that died without closing anything leaves rows naming a session that is gone.
    await a.pool.query(`INSERT INTO ws_consumer (id, queue_name, instance_id, owner_pid, owner_started) VALUES ('ghost', 'late', 'gone', 0, now())`);
    await rotationReady([a, b], 'late', 2);
    const leader = hubOf(hubOf(a).coordinator.isLeader ? a : b);
    await leader.dispatcher.purgeOnce();
    await eventually(() => leader.dispatcher.rotationOf('late').length === 1, 'the ghost to leave');
    expect(leader.dispatcher.rotationOf('late')).not.toContain('ghost');
    await close(socket);
    await rotationReady([a, b], 'late', 0);
  });

  it('keeps notifying when the instance that dispatches stops', async () => {
    const leader = [a, b].find((mq) => hubOf(mq).coordinator.isLeader);
    expect(leader).toBeDefined();
    const survivor = leader === a ? b : a;
    const socket = await consumer(survivor, 'late');
    await rotationReady([a, b], 'late', 1);

    stopped.add(leader as TestBroker);
    await (leader as TestBroker).stop();
    await eventually(() => hubOf(survivor).dispatcher.active, 'the other instance to take over');
    const [lateId] = await publishOne(survivor, 'late', 'after');
    await eventually(() => socket.frames.some((frame) => frame.message_id === lateId), 'the notification');
  });
});
