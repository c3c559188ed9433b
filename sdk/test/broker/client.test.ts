import { beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  ErrorCode,
  ConflictError,
  ForbiddenError,
  MiniQueue,
  MiniQueueError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthorizedError,
  type Message,
} from '../../src/index.js';
import { brokerForFile, until, type SdkBroker } from '../helpers/broker.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

let env: SdkBroker;
let admin: MiniQueue;
brokerForFile((started) => {
  env = started;
  admin = started.admin;
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('topics and queues', () => {
  it('creates, lists, reads, changes and deletes them', async () => {
    expect(await admin.topics.create('Shop.Orders')).toMatchObject({ name: 'shop.orders', created_at: expect.any(Date) });
    const queue = await admin.queues.create('shop-mail', 'shop.orders', { ackTimeoutSeconds: 10, maxRetries: 2 });
    expect(queue).toMatchObject({ name: 'shop-mail', topic_name: 'shop.orders', ack_timeout_seconds: 10, max_retries: 2 });
    await admin.queues.create('shop-stock', 'shop.orders');
    expect(await admin.queues.get('Shop-Mail')).toMatchObject({ name: 'shop-mail', ack_timeout_seconds: 10, acked_retention_hours: null });
    const changed = await admin.queues.update('shop-mail', { maxRetries: 7, ackedRetentionHours: 48 });
    expect(changed).toMatchObject({ ack_timeout_seconds: 10, max_retries: 7, acked_retention_hours: 48 });
    expect((await admin.queues.update('shop-mail', { ackedRetentionHours: null })).acked_retention_hours).toBeNull();
    await expect(admin.queues.get('nowhere')).rejects.toBeInstanceOf(NotFoundError);

    expect(await admin.topics.list()).toContainEqual(expect.objectContaining({ name: 'shop.orders', queues: ['shop-mail', 'shop-stock'] }));
    expect((await admin.queues.list()).map((q) => q.name)).toEqual(expect.arrayContaining(['shop-mail', 'shop-stock']));

    await expect(admin.topics.delete('shop.orders')).rejects.toBeInstanceOf(ConflictError);
    await admin.queues.delete('shop-mail');
    await admin.queues.delete('shop-stock');
    await admin.topics.delete('shop.orders');
    await expect(admin.topics.delete('shop.orders')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists, pages through and purges a queue’s messages', async () => {
    await admin.topics.create('audit');
    await admin.queues.create('audit-log', 'audit');
    await admin.publishBatch(
      'audit',
      Array.from({ length: 5 }, (_, i) => ({ payload: `entry ${i}` })),
    );

    const page = await admin.queues.messages('audit-log', { limit: 2 });
    expect(page.items.map((m) => m.payload)).toEqual(['entry 0', 'entry 1']);
    expect(page.next_cursor).toEqual(expect.any(String));
    const all = await collect(admin.queues.allMessages('audit-log', { limit: 2, status: 'PENDING' }));
    expect(all.map((m) => m.payload)).toEqual(['entry 0', 'entry 1', 'entry 2', 'entry 3', 'entry 4']);

    expect(await admin.queues.purge('audit-log')).toEqual({ queue: 'audit-log', purged: 5 });
    expect((await admin.queues.messages('audit-log')).items).toEqual([]);
  });
});

describe('publishing and consuming', () => {
  let shop: MiniQueue;
  let mailer: MiniQueue;
  beforeAll(async () => {
    await admin.topics.create('order.placed');
    await admin.queues.create('email-queue', 'order.placed', { maxRetries: 1 });
    shop = await env.client('shop', ['publish:order.placed']);
    mailer = await env.client('email-service', ['consume:email-queue']);
  });

  it('publishes, consumes and acks, with typed models', async () => {
    const published = await shop.publish('order.placed', '{"orderId":42}', { headers: { 'content-type': 'application/json' } });
    expect(published).toMatchObject({ queues: ['email-queue'], duplicate: false });
    const message = (await mailer.consume('email-queue')) as Message;
    expect(message).toMatchObject({
      message_id: published.message_ids[0],
      payload: '{"orderId":42}',
      headers: { 'content-type': 'application/json' },
      status: 'UNACKED',
      consumer_id: 'email-service',
      retry_count: 0,
    });
    expect(message.lease_expires_at).toBeInstanceOf(Date);
    expect(await mailer.consume('email-queue')).toBeNull();
    expect(await mailer.ack(message.message_id)).toEqual({ message_id: message.message_id, status: 'ACKED' });
    // Acking again (an answer lost on the way) is safe: done, once.
    expect(await mailer.ack(message.message_id)).toEqual({ message_id: message.message_id, status: 'ACKED' });
  });

  it('stores a publish once per idempotency key', async () => {
    const first = await shop.publish('order.placed', 'once', { idempotencyKey: 'order-7' });
    const again = await shop.publish('order.placed', 'once', { idempotencyKey: 'order-7' });
    expect(again).toEqual({ ...first, duplicate: true });
    await expect(shop.publish('order.placed', 'other payload', { idempotencyKey: 'order-7' })).rejects.toBeInstanceOf(ConflictError);
    const claimed = await mailer.receive('email-queue', { maxMessages: 10 });
    expect(claimed.map((m) => m.payload)).toEqual(['once']);
    await mailer.ackMany(claimed.map((m) => m.message_id));
  });

  it('over HTTP, stores a publish once when its response is lost and the SDK retries', async () => {
    let calls = 0;
    const lossy = new MiniQueue({
      url: env.broker.url,
      apiKey: (await admin.clients.create('lossy-shop', ['publish:order.placed'])).api_key,
      transport: 'http', // the loss is that of an HTTP response
      retry: { baseDelayMs: 5 },
      // The first publish reaches the broker, but its answer never comes back.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (calls++ === 0) throw new TypeError('fetch failed: connection reset');
        return response;
      },
    });
    const result = await lossy.publish('order.placed', 'exactly once');
    expect(calls).toBe(2);
    expect(result.duplicate).toBe(true);
    const claimed = await mailer.receive('email-queue', { maxMessages: 10 });
    expect(claimed.map((m) => m.payload)).toEqual(['exactly once']);
    await mailer.ackMany(claimed.map((m) => m.message_id));
  });

  it('over the stream, stores a publish once when its confirm is lost and the SDK sends it again', async () => {
    const proxy = await startTcpProxy(env.broker.url);
    const lossy = new MiniQueue({
      url: proxy.url,
      apiKey: (await admin.clients.create('lossy-streamer', ['publish:order.placed'])).api_key,
      retry: { baseDelayMs: 5, maxDelayMs: 20 },
    });
    try {
      await lossy.publish('order.placed', 'warm-up');
      await mailer.ackMany((await mailer.receive('email-queue', { maxMessages: 10 })).map((m) => m.message_id));
      // The publish reaches the broker and is stored, but its confirm never comes back.
      proxy.mute(true);
      const publishing = lossy.publish('order.placed', 'exactly once');
      await until(async () => (await admin.queues.messages('email-queue')).items.some((m) => m.payload === 'exactly once'), 10_000, 'stored');
      proxy.cut();
      proxy.mute(false);
      const result = await publishing;
      expect(result.message_ids).toHaveLength(1);
      const claimed = await mailer.receive('email-queue', { maxMessages: 10 });
      expect(claimed.map((m) => m.payload)).toEqual(['exactly once']);
      expect(claimed[0].message_id).toBe(result.message_ids[0]);
      await mailer.ackMany(claimed.map((m) => m.message_id));
    } finally {
      lossy.close();
      await proxy.close();
    }
  });

  it('publishes batches, receives many and acks many', async () => {
    const batch = await shop.publishBatch('order.placed', [
      { payload: 'a' },
      { payload: 'b', headers: { k: 'v' } },
      { payload: 'c', idempotencyKey: 'batch-c' },
    ]);
    expect(batch.results).toHaveLength(3);
    const repeat = await shop.publishBatch('order.placed', [{ payload: 'c', idempotencyKey: 'batch-c' }]);
    expect(repeat.results[0]).toMatchObject({ message_ids: batch.results[2].message_ids, duplicate: true });

    const claimed = await mailer.receive('email-queue', { maxMessages: 10, waitSeconds: 1 });
    expect(claimed.map((m) => m.payload).sort()).toEqual(['a', 'b', 'c']);
    const acked = await mailer.ackMany([...claimed.map((m) => m.message_id), '00000000-0000-4000-8000-000000000000']);
    expect(acked.acked).toHaveLength(3);
    expect(acked.failed).toEqual([expect.objectContaining({ message_id: '00000000-0000-4000-8000-000000000000', status: 404 })]);
  });

  it('long-polls until a message is published', async () => {
    const waiting = mailer.consume('email-queue', { waitSeconds: 5 });
    setTimeout(() => void shop.publish('order.placed', 'late'), 300);
    const started = Date.now();
    const message = await waiting;
    expect(message?.payload).toBe('late');
    expect(Date.now() - started).toBeLessThan(4000);
    await mailer.ack(message!.message_id);
  });

  it('nacks, extends, dead-letters and replays', async () => {
    await shop.publish('order.placed', 'troublesome');
    let message = (await mailer.consume('email-queue'))!;
    const extended = await mailer.extend(message.message_id, 120);
    expect(extended.lease_expires_at.getTime()).toBeGreaterThan(Date.now() + 100_000);
    expect(await mailer.nack(message.message_id)).toEqual({ message_id: message.message_id, status: 'PENDING' });

    message = (await mailer.consume('email-queue'))!;
    expect(message.retry_count).toBe(1);
    expect(await mailer.nack(message.message_id, { requeue: false })).toEqual({ message_id: message.message_id, status: 'DEAD' });

    const dead = await admin.dlq.list({ queue: 'email-queue' });
    expect(dead.items.map((m) => m.message_id)).toEqual([message.message_id]);
    expect((await collect(admin.dlq.all())).map((m) => m.message_id)).toContain(message.message_id);
    expect(await admin.dlq.replay(message.message_id)).toEqual({ message_id: message.message_id, status: 'PENDING' });
    await expect(admin.dlq.replay(message.message_id)).rejects.toBeInstanceOf(ConflictError);

    message = (await mailer.consume('email-queue'))!;
    expect(message.retry_count).toBe(0);
    await mailer.nack(message.message_id, { requeue: false });
    expect(await admin.dlq.replayAll('email-queue', { limit: 10 })).toEqual({ replayed: 1 });
    message = (await mailer.consume('email-queue'))!;
    await mailer.ack(message.message_id);
  });

  it('reads one message by id, whatever its status, and deletes a dead one', async () => {
    const published = await shop.publish('order.placed', 'looked at');
    const id = published.message_ids[0];
    expect(await mailer.getMessage(id)).toMatchObject({ message_id: id, status: 'PENDING', payload: 'looked at', queue: 'email-queue' });
    const claimed = (await mailer.consume('email-queue'))!;
    const held = await admin.getMessage(id);
    expect(held).toMatchObject({ status: 'UNACKED', consumer_id: 'email-service' });
    expect(held.lease_expires_at).toBeInstanceOf(Date);
    await mailer.nack(claimed.message_id, { requeue: false });
    expect((await admin.getMessage(id)).status).toBe('DEAD');
    // A key that may neither view nor consume is refused before the id is looked up.
    await expect(shop.getMessage(id)).rejects.toBeInstanceOf(ForbiddenError);
    // Neither an unknown id nor a message of a queue the key may not consume is found.
    const outsider = await env.client('other-consumer', ['consume:other-queue']);
    for (const target of [id, '00000000-0000-7000-8000-000000000000']) {
      const error = await outsider.getMessage(target).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).code).toBe(ErrorCode.MessageNotFound);
    }

    await admin.dlq.delete(id);
    await expect(admin.getMessage(id)).rejects.toBeInstanceOf(NotFoundError);
    const again = await admin.dlq.delete(id).catch((e: unknown) => e);
    expect([again instanceof NotFoundError, (again as NotFoundError).code]).toEqual([true, ErrorCode.MessageNotFound]);
    const live = (await shop.publish('order.placed', 'alive')).message_ids[0];
    const notDead = await admin.dlq.delete(live).catch((e: unknown) => e);
    expect([notDead instanceof ConflictError, (notDead as ConflictError).code]).toEqual([true, ErrorCode.MessageNotDead]);
    await mailer.ack((await mailer.consume('email-queue'))!.message_id);
  });

  it('tells consumer instances apart with instanceId', async () => {
    const key = (await admin.clients.create('replicas', ['consume:email-queue'])).api_key;
    const one = new MiniQueue({ url: env.broker.url, apiKey: key, instanceId: 'replica-1' });
    const two = new MiniQueue({ url: env.broker.url, apiKey: key, instanceId: 'replica-2' });
    await shop.publish('order.placed', 'for replica 1');
    const message = (await one.consume('email-queue'))!;
    expect(message.consumer_id).toBe('replicas/replica-1');
    await expect(two.ack(message.message_id)).rejects.toBeInstanceOf(ConflictError);
    await one.ack(message.message_id);
  });
});

describe('clients, dashboard, auth and operations', () => {
  it('registers, lists, rotates and revokes clients', async () => {
    const created = await admin.clients.create('reporting', ['view']);
    expect(created.api_key).toMatch(/^mq_/);
    expect(created.key_prefix).toBe(created.api_key.slice(0, 12));
    expect((await admin.clients.list()).map((c) => c.name)).toContain('reporting');

    const reporting = new MiniQueue({ url: env.broker.url, apiKey: created.api_key });
    expect(await reporting.auth.me()).toEqual({ name: 'reporting', kind: 'client', scopes: ['view'] });
    const rotated = await admin.clients.rotate('reporting');
    await expect(reporting.auth.me()).rejects.toBeInstanceOf(UnauthorizedError);
    const renewed = new MiniQueue({ url: env.broker.url, apiKey: rotated.api_key });
    await expect(renewed.topics.create('not-allowed')).rejects.toBeInstanceOf(ForbiddenError);

    await admin.clients.delete('reporting');
    await expect(admin.clients.delete('reporting')).rejects.toBeInstanceOf(NotFoundError);
    await expect(renewed.topics.list()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it("changes a client's scopes, keeping its key", async () => {
    const created = await admin.clients.create('auditor', ['view', 'publish:*']);
    const auditor = new MiniQueue({ url: env.broker.url, apiKey: created.api_key });
    await expect(auditor.topics.list()).resolves.toBeInstanceOf(Array);
    const changed = await admin.clients.update('auditor', ['publish:*']);
    expect(changed).toMatchObject({ name: 'auditor', scopes: ['publish:*'], key_prefix: created.key_prefix });
    expect(await auditor.auth.me()).toEqual({ name: 'auditor', kind: 'client', scopes: ['publish:*'] });
    await expect(auditor.topics.list()).rejects.toBeInstanceOf(ForbiddenError);
    const unknown = await admin.clients.update('auditor', ['fly']).catch((e: unknown) => e);
    expect([unknown instanceof BadRequestError, (unknown as BadRequestError).code]).toEqual([true, ErrorCode.UnknownScope]);
    const nobody = await admin.clients.update('nobody', ['view']).catch((e: unknown) => e);
    expect([nobody instanceof NotFoundError, (nobody as NotFoundError).code]).toEqual([true, ErrorCode.ClientNotFound]);
    await admin.clients.delete('auditor');
  });

  it('reads the dashboard counts', async () => {
    await admin.topics.create('metrics.topic');
    await admin.queues.create('metrics-queue', 'metrics.topic');
    await admin.publish('metrics.topic', 'count me');
    const overview = await admin.dashboard.overview();
    expect(overview.pending).toBeGreaterThanOrEqual(1);
    expect(overview.topics).toBeGreaterThanOrEqual(1);
    expect(await admin.dashboard.queues()).toContainEqual(expect.objectContaining({ queue: 'metrics-queue', topic: 'metrics.topic', pending: 1 }));
  });

  it('reaches the operations endpoints', async () => {
    const anonymous = new MiniQueue({ url: env.broker.url });
    expect(await anonymous.ops.health()).toEqual({ status: 'UP' });
    expect(await anonymous.ops.info()).toMatchObject({ name: expect.any(String), version: expect.any(String) });
    expect(await anonymous.ops.openapi()).toContain('openapi: 3.0.3');
    expect(await admin.ops.metrics()).toContain('miniqueue_messages_published_total');
    await expect(anonymous.ops.metrics()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(anonymous.auth.githubLoginUrl()).toBe(`${env.broker.url}/api/v1/auth/github/login`);
  });

  it('reaches the session endpoints', async () => {
    // An API key cannot log out, and a made-up login code is refused. (501 while sign-in is not built.)
    const logout = await admin.auth.logout().catch((e: unknown) => e);
    expect(logout).toBeInstanceOf(MiniQueueError);
    expect([403, 501]).toContain((logout as MiniQueueError).status);
    const exchange = await admin.auth.exchange('lc_made_up').catch((e: unknown) => e);
    expect(exchange).toBeInstanceOf(MiniQueueError);
    expect([401, 501]).toContain((exchange as MiniQueueError).status);
    const ticket = await admin.auth.wsTicket().catch((e: unknown) => e);
    if (ticket instanceof MiniQueueError) expect(ticket.status).toBe(501);
    else expect(ticket).toMatchObject({ ticket: expect.stringMatching(/^wst_/), expires_at: expect.any(Date) });
  });
});

describe('typed errors from the broker', () => {
  it('maps each refusal to its class, with the contract’s message and field errors', async () => {
    const badName = await admin.topics.create('no spaces allowed').catch((e: unknown) => e);
    expect(badName).toBeInstanceOf(BadRequestError);
    expect((badName as BadRequestError).errors).toEqual([expect.objectContaining({ field: expect.any(String), message: expect.any(String) })]);

    expect((badName as BadRequestError).code).toBe(ErrorCode.ValidationFailed);

    const missing = await admin.publish('no.such.topic', 'x').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).message).toMatch(/no\.such\.topic/);
    expect((missing as NotFoundError).code).toBe(ErrorCode.TopicNotFound);

    await admin.topics.create('scoped.topic');
    const narrow = await admin.clients.create('scoped-publisher', ['publish:other.topic']);
    const refused = await new MiniQueue({ url: env.broker.url, apiKey: narrow.api_key }).publish('scoped.topic', 'x').catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 403, code: ErrorCode.ScopeRequired, scope: 'publish:scoped.topic' });

    await expect(new MiniQueue({ url: env.broker.url, apiKey: 'mq_wrong' }).topics.list()).rejects.toBeInstanceOf(UnauthorizedError);

    await admin.topics.create('big.payloads');
    await admin.queues.create('big-queue', 'big.payloads');
    await admin.publish('big.payloads', 'x'.repeat(262_144));
    await expect(admin.publish('big.payloads', 'x'.repeat(262_145))).rejects.toBeInstanceOf(PayloadTooLargeError);
  });
});
