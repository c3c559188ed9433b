import { describe, expect, it } from 'vitest';
import { BadRequestError, ForbiddenError, MiniQueue, NotFoundError, PayloadTooLargeError, RateLimitedError, type MiniQueueError } from '../../src/index.js';
import { brokerForFile, until, type SdkBroker } from '../helpers/broker.js';
import { startTcpProxy } from '../helpers/tcpProxy.js';

let env: SdkBroker;
brokerForFile((started) => (env = started));

const TRANSPORTS = ['stream', 'http'] as const;

async function topicWithQueue(name: string, options: { maxMessages?: number } = {}) {
  await env.admin.topics.create(name);
  await env.admin.queues.create(name, name, options);
}

const rowsOf = async (topic: string, payload: string) =>
  Number((await env.broker.pool.query('SELECT count(*) FROM message WHERE topic_name = $1 AND payload = $2', [topic, payload])).rows[0].count);

const keysNamed = async (key: string) => Number((await env.broker.pool.query('SELECT count(*) FROM idempotency_key WHERE key = $1', [key])).rows[0].count);

describe.each(TRANSPORTS)('idempotency keys over %s', (transport) => {
  it("sends the caller's key as given: a repeat with it is the same message, stored once", async () => {
    const topic = `given-key-${transport}`;
    await topicWithQueue(topic);
    const client = new MiniQueue({ url: env.broker.url, apiKey: env.broker.adminKey, transport });
    const key = `order-42-${transport}`;
    const first = await client.publish(topic, 'order 42', { idempotencyKey: key });
    const again = await client.publish(topic, 'order 42', { idempotencyKey: key });
    client.close();
    expect(first.duplicate).toBe(false);
    expect(again).toMatchObject({ duplicate: true, message_ids: first.message_ids });
    expect(await keysNamed(key)).toBe(1);
    expect(await rowsOf(topic, 'order 42')).toBe(1);
  });

  it('a publish whose answer was lost is sent again by the SDK with its one key: stored once', async () => {
    const topic = `lost-answer-${transport}`;
    await topicWithQueue(topic);
    const proxy = await startTcpProxy(env.broker.url);
    // Short attempts over HTTP, so the lost answer is retried soon; the stream waits for its confirm.
    const client = new MiniQueue({ url: proxy.url, apiKey: env.broker.adminKey, transport, timeoutMs: 1000 });
    await client.publish(topic, 'warm-up'); // the stream is open before the answers are lost
    proxy.mute(true);
    const publishing = client.publish(topic, 'once');
    await until(async () => (await rowsOf(topic, 'once')) === 1, 10_000, 'the publish stored');
    proxy.mute(false);
    proxy.cut(); // the stream has to reopen; an HTTP attempt has timed out or will
    const result = await publishing;
    client.close();
    await proxy.close();
    expect(result.message_ids).toHaveLength(1);
    expect(await rowsOf(topic, 'once')).toBe(1);
    const { rows } = await env.broker.pool.query('SELECT message_ids FROM idempotency_key WHERE $1 = ANY(message_ids)', [result.message_ids[0]]);
    expect(rows).toHaveLength(1);
  });
});

describe('idempotency keys of a batch publish', () => {
  it("sends each item's given key as given, and a batch whose answer was lost is stored once", async () => {
    const topic = 'batch-keys';
    await topicWithQueue(topic);
    const proxy = await startTcpProxy(env.broker.url);
    const client = new MiniQueue({ url: proxy.url, apiKey: env.broker.adminKey, timeoutMs: 1000 });
    proxy.mute(true);
    const publishing = client.publishBatch(topic, [{ payload: 'b1', idempotencyKey: 'batch-item-1' }, { payload: 'b2' }]);
    await until(async () => (await rowsOf(topic, 'b2')) === 1, 10_000, 'the batch stored');
    proxy.mute(false);
    const result = await publishing;
    client.close();
    await proxy.close();
    expect(result.results.map((item) => item.duplicate)).toEqual([true, true]);
    expect(await keysNamed('batch-item-1')).toBe(1);
    expect([await rowsOf(topic, 'b1'), await rowsOf(topic, 'b2')]).toEqual([1, 1]);
  });
});

describe.each(TRANSPORTS)('refusals retrying cannot mend, over %s, with the default retry policy', (transport) => {
  const expectAtOnce = async (publishing: Promise<unknown>, type: new (...args: never[]) => MiniQueueError, code?: string) => {
    const error = (await publishing.then(
      () => null,
      (failure: unknown) => failure,
    )) as MiniQueueError;
    expect(error, String(error)).toBeInstanceOf(type);
    // One answer, not retried: no waiting for the 60 s of the retry policy.
    expect(error.attempts, String(error)).toBe(1);
    if (code) expect(error.code).toBe(code);
  };

  it('400, 403, 404, 413 and queue_full fail after their one answer', async () => {
    const topic = `refused-${transport}`;
    await topicWithQueue(topic, { maxMessages: 1 });
    const admin = new MiniQueue({ url: env.broker.url, apiKey: env.broker.adminKey, transport });
    const outsider = await env.client(`outsider-${transport}`, ['publish:elsewhere'], { transport });
    await expectAtOnce(admin.publish(topic, 'x', { delaySeconds: 5000 }), BadRequestError);
    await expectAtOnce(outsider.publish(topic, 'x'), ForbiddenError);
    await expectAtOnce(admin.publish(`${topic}-missing`, 'x'), NotFoundError, 'topic_not_found');
    await expectAtOnce(admin.publish(topic, 'x'.repeat(262_145)), PayloadTooLargeError);
    await admin.publish(topic, 'fills the queue');
    await expectAtOnce(admin.publish(topic, 'no room'), RateLimitedError, 'queue_full');
    admin.close();
    outsider.close();
  });
});
