import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { sample, scrape } from '../helpers/metrics.js';
import { openStream, publishFrame, type TestStream } from '../stream/support.js';

/**
 * overflow reject_copy: a full queue refuses only its own copy; the other queues of the topic get
 * theirs, and the answer names the queue that refused (HTTP single and batch, the stream's
 * confirm). A message that every queue it goes to refused is refused whole (429 queue_full).
 */
let mq: TestBroker;
let stream: TestStream | undefined;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(async () => {
  stream?.ws.terminate();
  await mq?.stop();
});

const topic = async (name: string, queues: Record<string, unknown>[]) => {
  expect((await mq.post('/api/v1/topics', { name }, mq.adminKey)).status).toBe(201);
  for (const queue of queues) {
    const response = await mq.post('/api/v1/queues', { topic_name: name, ...queue }, mq.adminKey);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }
};
const publish = (name: string, payload: string, headers: Record<string, string> = {}) =>
  mq.post(`/api/v1/topics/${name}/messages`, { payload }, mq.adminKey, headers);
const publishBatch = (name: string, messages: { payload: string; idempotency_key?: string }[]) =>
  mq.post(`/api/v1/topics/${name}/messages/batch`, { messages }, mq.adminKey);
const live = async (queue: string) =>
  (await mq.pool.query<{ payload: string }>('SELECT payload FROM message WHERE queue_name = $1 ORDER BY seq', [queue])).rows.map((row) => row.payload);
const refusedCopies = async (queue: string) => sample(await scrape(mq, mq.adminKey), `miniqueue_copies_refused_total{queue="${queue}"}`);

describe('overflow reject_copy', () => {
  it('is accepted on create and update, and shown', async () => {
    await topic('rc-settings', [{ name: 'rcs-queue', max_messages: 5, overflow: 'reject_copy' }]);
    expect((await mq.get('/api/v1/queues/rcs-queue', mq.adminKey)).body).toMatchObject({ max_messages: 5, overflow: 'reject_copy' });
    expect((await mq.patch('/api/v1/queues/rcs-queue', { overflow: 'reject_publish' }, mq.adminKey)).body).toMatchObject({ overflow: 'reject_publish' });
    expect((await mq.patch('/api/v1/queues/rcs-queue', { overflow: 'reject_copy' }, mq.adminKey)).body).toMatchObject({ overflow: 'reject_copy' });
  });

  it('over HTTP: a full queue refuses its copy, the plain queue gets it, the answer names the refused queue', async () => {
    await topic('rc-single', [{ name: 'rc1-side', max_messages: 2, overflow: 'reject_copy' }, { name: 'rc1-main' }]);
    const before = await refusedCopies('rc1-side');
    for (const payload of ['a', 'b']) {
      const stored = await publish('rc-single', payload);
      expect(stored.status).toBe(201);
      expect(stored.body.queues).toEqual(['rc1-main', 'rc1-side']);
      expect(stored.body.refused ?? []).toEqual([]);
    }
    const partly = await publish('rc-single', 'c');
    expect(partly.status, JSON.stringify(partly.body)).toBe(201);
    expect(partly.body.queues).toEqual(['rc1-main']);
    expect(partly.body.message_ids).toHaveLength(1);
    expect(partly.body.refused).toEqual([{ queue: 'rc1-side', code: 'queue_full', message: expect.stringContaining('rc1-side') }]);
    expect(partly.body.refused[0].message).toContain('max_messages 2');
    expect(await live('rc1-main')).toEqual(['a', 'b', 'c']);
    expect(await live('rc1-side')).toEqual(['a', 'b']);
    expect((await refusedCopies('rc1-side')) - before).toBe(1);
  });

  it('in a batch: each item that does not fit is refused by that queue only; every item reaches the plain queue', async () => {
    await topic('rc-batch', [{ name: 'rcb-side', max_messages: 2, overflow: 'reject_copy' }, { name: 'rcb-main' }]);
    const answer = await publishBatch(
      'rc-batch',
      ['a', 'b', 'c', 'd'].map((payload) => ({ payload })),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.results.map((r: { queues: string[] }) => r.queues)).toEqual([
      ['rcb-main', 'rcb-side'],
      ['rcb-main', 'rcb-side'],
      ['rcb-main'],
      ['rcb-main'],
    ]);
    expect(answer.body.results[0].refused ?? []).toEqual([]);
    expect(answer.body.results[2].refused).toEqual([{ queue: 'rcb-side', code: 'queue_full', message: expect.stringContaining('rcb-side') }]);
    expect(answer.body.results[3].refused).toMatchObject([{ queue: 'rcb-side', code: 'queue_full' }]);
    expect(await live('rcb-main')).toEqual(['a', 'b', 'c', 'd']);
    expect(await live('rcb-side')).toEqual(['a', 'b']);
  });

  it('on the stream: the confirm frame names the queue that refused its copy', async () => {
    await topic('rc-stream', [{ name: 'rcs-side', max_messages: 1, overflow: 'reject_copy' }, { name: 'rcs-main' }]);
    stream = await openStream(mq, { key: mq.adminKey });
    for (let seq = 1; seq <= 3; seq++) stream.send(publishFrame(seq, 'rc-stream', `m${seq}`));
    const answers = [];
    for (let seq = 1; seq <= 3; seq++) answers.push(await stream.next((frame) => (frame.type === 'confirm' || frame.type === 'reject') && frame.seq === seq));
    expect(answers.map((frame) => frame.type)).toEqual(['confirm', 'confirm', 'confirm']);
    expect(answers[0].refused ?? []).toEqual([]);
    expect(answers[0].queues).toEqual(['rcs-main', 'rcs-side']);
    for (const frame of answers.slice(1)) {
      expect(frame.queues).toEqual(['rcs-main']);
      expect(frame.refused).toEqual([{ queue: 'rcs-side', code: 'queue_full', message: expect.stringContaining('rcs-side') }]);
    }
    expect(await live('rcs-main')).toEqual(['m1', 'm2', 'm3']);
    expect(await live('rcs-side')).toEqual(['m1']);
  });

  it('a message every queue refused is refused whole: 429 queue_full, nothing stored (single and batch)', async () => {
    await topic('rc-only', [{ name: 'rco-queue', max_messages: 1, overflow: 'reject_copy' }]);
    expect((await publish('rc-only', 'a')).status).toBe(201);
    const refused = await publish('rc-only', 'b');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('queue_full');
    expect(refused.body.message).toContain('rco-queue');
    expect(refused.headers['retry-after']).toBe('1');
    const batch = await publishBatch('rc-only', [{ payload: 'c' }]);
    expect(batch.status).toBe(429);
    expect(batch.body.code).toBe('queue_full');
    expect(await live('rco-queue')).toEqual(['a']);
  });

  it('a retry with the same idempotency key is stored once and answered the same, refused copy included', async () => {
    await topic('rc-idem', [{ name: 'rci-side', max_messages: 1, overflow: 'reject_copy' }, { name: 'rci-main' }]);
    expect((await publish('rc-idem', 'first')).status).toBe(201);
    const original = await publish('rc-idem', 'keyed', { 'idempotency-key': 'rc-idem-1' });
    expect(original.status).toBe(201);
    expect(original.body.refused).toMatchObject([{ queue: 'rci-side', code: 'queue_full' }]);
    // Room is made meanwhile: the retry must still answer what the first publish did, and store nothing.
    const [held] = (await mq.post('/api/v1/queues/rci-side/receive', { max_messages: 1 }, mq.adminKey)).body.messages;
    expect((await mq.post(`/api/v1/messages/${held.message_id}/ack`, {}, mq.adminKey)).status).toBe(200);
    const retry = await publish('rc-idem', 'keyed', { 'idempotency-key': 'rc-idem-1' });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ ...original.body, duplicate: true });
    const batchRetry = await publishBatch('rc-idem', [{ payload: 'keyed', idempotency_key: 'rc-idem-1' }]);
    expect(batchRetry.body.results[0]).toEqual({ ...original.body, duplicate: true });
    expect(await live('rci-main')).toEqual(['first', 'keyed']);
    expect(await live('rci-side')).toEqual([]);
  });

  it('a key claimed again after it expired, by a publish that nothing refused, no longer answers with the old refused copies', async () => {
    await topic('rc-reuse', [{ name: 'rcr-side', max_messages: 1, overflow: 'reject_copy' }, { name: 'rcr-main' }]);
    await topic('rc-reuse-plain', [{ name: 'rcr-plain' }]);
    expect((await publish('rc-reuse', 'first')).status).toBe(201);
    expect((await publish('rc-reuse', 'keyed', { 'idempotency-key': 'rc-reuse-1' })).body.refused).toHaveLength(1);
    await mq.pool.query(`UPDATE idempotency_key SET created_at = now() - interval '25 hours' WHERE key = 'rc-reuse-1'`);
    // A plain (unbounded) publish takes the expired key; its repeat must answer what it stored.
    const reclaimed = await publish('rc-reuse-plain', 'again', { 'idempotency-key': 'rc-reuse-1' });
    expect(reclaimed.status).toBe(201);
    const repeat = await publish('rc-reuse-plain', 'again', { 'idempotency-key': 'rc-reuse-1' });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ ...reclaimed.body, duplicate: true });
    expect(repeat.body.refused).toBeUndefined();
  });

  it('with an ordering key: a refused copy takes no place in its key group; the next copy that fits is the head', async () => {
    await topic('rc-keyed', [{ name: 'rck-side', max_messages: 1, overflow: 'reject_copy' }, { name: 'rck-main' }]);
    const keyed = (payload: string) => mq.post('/api/v1/topics/rc-keyed/messages', { payload, ordering_key: 'k' }, mq.adminKey);
    expect((await keyed('k1')).body.queues).toEqual(['rck-main', 'rck-side']);
    const refused = await keyed('k2');
    expect(refused.status).toBe(201);
    expect(refused.body.queues).toEqual(['rck-main']);
    expect(refused.body.refused).toMatchObject([{ queue: 'rck-side', code: 'queue_full' }]);
    const [held] = (await mq.post('/api/v1/queues/rck-side/receive', { max_messages: 1 }, mq.adminKey)).body.messages;
    expect(held.payload).toBe('k1');
    expect((await mq.post(`/api/v1/messages/${held.message_id}/ack`, {}, mq.adminKey)).status).toBe(200);
    expect((await keyed('k3')).body.queues).toEqual(['rck-main', 'rck-side']);
    const [next] = (await mq.post('/api/v1/queues/rck-side/receive', { max_messages: 1 }, mq.adminKey)).body.messages;
    expect(next.payload).toBe('k3');
    expect(await live('rck-main')).toEqual(['k1', 'k2', 'k3']);
  });

  it('beside a reject_publish queue: reject_publish still refuses the whole publish', async () => {
    await topic('rc-mixed', [{ name: 'rcm-copy', max_messages: 5, overflow: 'reject_copy' }, { name: 'rcm-whole', max_messages: 1 }, { name: 'rcm-main' }]);
    expect((await publish('rc-mixed', 'a')).status).toBe(201);
    const refused = await publish('rc-mixed', 'b');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('queue_full');
    expect(refused.body.message).toContain('rcm-whole');
    expect((await publishBatch('rc-mixed', [{ payload: 'c' }])).status).toBe(429);
    for (const queue of ['rcm-copy', 'rcm-whole', 'rcm-main']) expect(await live(queue)).toEqual(['a']);
  });

  it('holds for a queue switched to reject_copy after this instance last published to its topic', async () => {
    await topic('rc-late', [{ name: 'rcl-side' }, { name: 'rcl-main' }]);
    expect((await publish('rc-late', 'x1')).status).toBe(201);
    expect((await mq.patch('/api/v1/queues/rcl-side', { max_messages: 1, overflow: 'reject_copy' }, mq.adminKey)).status).toBe(200);
    const partly = await publish('rc-late', 'x2');
    expect(partly.status).toBe(201);
    expect(partly.body.refused).toMatchObject([{ queue: 'rcl-side', code: 'queue_full' }]);
    expect(await live('rcl-main')).toEqual(['x1', 'x2']);
    expect(await live('rcl-side')).toEqual(['x1']);
  });
});
