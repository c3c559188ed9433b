import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let consumer: string;
beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'v', [{ name: 'v-q' }]);
  consumer = await mq.clientKey('v-consumer', ['consume:v-q']);
});
afterAll(() => mq.stop());

const fieldsOf = (body: { errors: { field: string }[] | null }) => (body.errors ?? []).map((e) => e.field);

describe('bad input gets a 400 naming the field, and changes nothing', () => {
  it.each([
    ['a space', 'order placed'],
    ['too long', 'x'.repeat(101)],
    ['empty', ''],
    ['a slash', 'a/b'],
    // A URL cannot address them: clients and proxies resolve /topics/. and /topics/.. as paths.
    ['only a dot', '.'],
    ['only two dots', '..'],
  ])('refuses a topic name with %s', async (_, name) => {
    const response = await mq.post('/api/v1/topics', { name }, mq.adminKey);
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['name']);
  });

  it('refuses . and .. as queue and client names too, and takes other names of dots', async () => {
    for (const name of ['.', '..']) {
      expect(fieldsOf((await mq.post('/api/v1/queues', { name, topic_name: 'v' }, mq.adminKey)).body)).toEqual(['name']);
      expect(fieldsOf((await mq.post('/api/v1/clients', { name, scopes: ['view'] }, mq.adminKey)).body)).toEqual(['name']);
    }
    expect((await mq.post('/api/v1/topics', { name: '...' }, mq.adminKey)).status).toBe(201);
    expect((await mq.post('/api/v1/topics', { name: '.hidden' }, mq.adminKey)).status).toBe(201);
  });

  it.each([
    ['ack_timeout_seconds', 0],
    ['ack_timeout_seconds', 43_201],
    ['max_retries', -1],
    ['max_retries', 101],
    ['max_retries', 1.5],
  ])('refuses a queue with %s = %s (never clamps)', async (field, value) => {
    const response = await mq.post('/api/v1/queues', { name: 'never', topic_name: 'v', [field]: value }, mq.adminKey);
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([field]);
    expect((await mq.get('/api/v1/queues', mq.adminKey)).body.map((q: { name: string }) => q.name)).not.toContain('never');
  });

  it.each([
    ['/api/v1/queues/v-q/consume?wait_seconds=21', undefined, 'wait_seconds'],
    ['/api/v1/queues/v-q/receive', { max_messages: 101 }, 'max_messages'],
    ['/api/v1/queues/v-q/receive', { max_messages: 0 }, 'max_messages'],
    ['/api/v1/queues/v-q/receive', { wait_seconds: -1 }, 'wait_seconds'],
  ])('refuses out-of-range numbers: %s', async (url, body, field) => {
    const response = await mq.post(url, body, consumer);
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([field]);
  });

  it('refuses publish bodies that are malformed, incomplete or carry unknown fields', async () => {
    const malformed = await mq.request('POST', '/api/v1/topics/v/messages', {
      key: mq.adminKey,
      rawBody: '{"payload":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await mq.post('/api/v1/topics/v/messages', {}, mq.adminKey)).body.errors).toEqual([{ field: 'payload', message: 'is required' }]);
    expect(fieldsOf((await mq.post('/api/v1/topics/v/messages', { payload: 'x', extra: 1 }, mq.adminKey)).body)).toEqual(['extra']);
    expect(fieldsOf((await mq.post('/api/v1/topics/v/messages', { payload: 'x', delay_seconds: 901 }, mq.adminKey)).body)).toEqual(['delay_seconds']);
    expect(fieldsOf((await mq.post('/api/v1/topics/v/messages', { payload: 'x', headers: { a: 1 } }, mq.adminKey)).body)).toEqual(['headers.a']);
    expect(fieldsOf((await mq.post('/api/v1/topics/v/messages/batch', { messages: [] }, mq.adminKey)).body)).toEqual(['messages']);
    const tooMany = Array.from({ length: 501 }, () => ({ payload: 'x' }));
    expect((await mq.post('/api/v1/topics/v/messages/batch', { messages: tooMany }, mq.adminKey)).status).toBe(400);
    const { rows } = await mq.pool.query('SELECT count(*)::int AS n FROM message');
    expect(rows[0].n).toBe(0);
  });

  it('refuses a bad message id, MiniQueue-Instance header or cursor', async () => {
    expect(fieldsOf((await mq.post('/api/v1/messages/not-a-uuid/ack', undefined, consumer)).body)).toEqual(['id']);
    const badInstance = await mq.post('/api/v1/queues/v-q/consume', undefined, consumer, { 'MiniQueue-Instance': 'bad instance!' });
    expect(badInstance.status).toBe(400);
    expect(fieldsOf((await mq.get('/api/v1/queues/v-q/messages?cursor=zzz', mq.adminKey)).body)).toEqual(['cursor']);
    expect(fieldsOf((await mq.get(`/api/v1/queues/v-q/messages?cursor=${'1'.repeat(16)}`, mq.adminKey)).body)).toEqual(['cursor']);
    expect(fieldsOf((await mq.get('/api/v1/queues/v-q/messages?limit=501', mq.adminKey)).body)).toEqual(['limit']);
  });

  it('takes any cursor the contract describes: a position, which may be past the end', async () => {
    expect((await mq.get('/api/v1/queues/v-q/messages?cursor=0000000000000000000', mq.adminKey)).status).toBe(200);
    expect((await mq.get('/api/v1/dashboard/dlq?cursor=999999999999999999999999999999999999', mq.adminKey)).body).toMatchObject({
      items: [],
      next_cursor: null,
    });
    // Newest first, the largest position is before every message, and the smallest past the end.
    expect((await mq.get('/api/v1/queues/v-q/messages?order=desc&cursor=999999999999999999999999999999999999', mq.adminKey)).status).toBe(200);
    expect((await mq.get('/api/v1/queues/v-q/messages?order=desc&cursor=0000000000000000000', mq.adminKey)).body).toMatchObject({
      items: [],
      next_cursor: null,
    });
  });

  it('answers unknown routes and things in the error shape', async () => {
    const route = await mq.get('/api/v1/nothing-here', mq.adminKey);
    expect(route.body).toEqual({ status: 404, code: 'route_not_found', message: 'No route for GET /api/v1/nothing-here', errors: null, response_body: null });
    expect((await mq.post('/api/v1/topics/nope/messages', { payload: 'x' }, mq.adminKey)).body.message).toBe('No topic found with the name nope');
    expect((await mq.post('/api/v1/queues/nope/consume', undefined, mq.adminKey)).status).toBe(404);
    expect((await mq.del('/api/v1/topics/nope', mq.adminKey)).status).toBe(404);
    expect((await mq.post('/api/v1/queues', { name: 'q2', topic_name: 'nope' }, mq.adminKey)).status).toBe(404);
  });
});

describe('topics and queues', () => {
  it('names are lowercased in bodies and paths; duplicates are 409', async () => {
    expect((await mq.post('/api/v1/topics', { name: 'Case.Topic' }, mq.adminKey)).body.name).toBe('case.topic');
    expect((await mq.post('/api/v1/topics', { name: 'CASE.TOPIC' }, mq.adminKey)).status).toBe(409);
    expect((await mq.post('/api/v1/queues', { name: 'Case-Q', topic_name: 'CASE.topic' }, mq.adminKey)).status).toBe(201);
    expect((await mq.post('/api/v1/queues', { name: 'case-q', topic_name: 'case.topic' }, mq.adminKey)).status).toBe(409);
    const topics = await mq.get('/api/v1/topics', mq.adminKey);
    expect(topics.body.find((t: { name: string }) => t.name === 'case.topic').queues).toEqual(['case-q']);
  });

  it('a topic with queues cannot be deleted; deleting its queue takes the messages with it', async () => {
    await topology(mq, 'gone', [{ name: 'gone-q' }]);
    await mq.post('/api/v1/topics/gone/messages', { payload: 'x' }, mq.adminKey);
    expect((await mq.del('/api/v1/topics/gone', mq.adminKey)).status).toBe(409);
    expect((await mq.del('/api/v1/queues/GONE-Q', mq.adminKey)).status).toBe(204);
    expect((await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = 'gone-q'`)).rows[0].n).toBe(0);
    expect((await mq.del('/api/v1/topics/gone', mq.adminKey)).status).toBe(204);
  });

  it('publishing to a topic without queues stores nothing and says so', async () => {
    await mq.post('/api/v1/topics', { name: 'lonely' }, mq.adminKey);
    const response = await mq.post('/api/v1/topics/lonely/messages', { payload: 'x' }, mq.adminKey);
    expect(response.body).toEqual({ message_ids: [], queues: [], duplicate: false });
  });

  it('lists messages page by page with a cursor, filtered by status', async () => {
    await topology(mq, 'paged', [{ name: 'paged-q' }]);
    const batch = await mq.post('/api/v1/topics/paged/messages/batch', { messages: Array.from({ length: 7 }, (_, i) => ({ payload: `p${i}` })) }, mq.adminKey);
    const ids = batch.body.results.map((r: { message_ids: string[] }) => r.message_ids[0]);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await mq.get(`/api/v1/queues/paged-q/messages?limit=3${cursor ? `&cursor=${cursor}` : ''}`, mq.adminKey);
      seen.push(...page.body.items.map((m: { message_id: string }) => m.message_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(ids);
    await mq.post('/api/v1/queues/paged-q/consume', undefined, mq.adminKey);
    const unacked = await mq.get('/api/v1/queues/paged-q/messages?status=UNACKED', mq.adminKey);
    expect(unacked.body.items.map((m: { message_id: string }) => m.message_id)).toEqual([ids[0]]);
    expect((await mq.post('/api/v1/queues/paged-q/purge', undefined, mq.adminKey)).body).toEqual({ queue: 'paged-q', purged: 7 });
  });

  it('headers and delays travel with the message; delayed messages wait', async () => {
    await topology(mq, 'later', [{ name: 'later-q' }]);
    await mq.post('/api/v1/topics/later/messages', { payload: 'x', headers: { trace: 'abc' }, delay_seconds: 60 }, mq.adminKey);
    expect((await mq.post('/api/v1/queues/later-q/consume', undefined, mq.adminKey)).status).toBe(204);
    await mq.pool.query(`UPDATE message SET available_at = now() WHERE queue_name = 'later-q'`);
    const got = await mq.post('/api/v1/queues/later-q/consume', undefined, mq.adminKey);
    expect(got.body.headers).toEqual({ trace: 'abc' });
  });

  it('overview and per-queue numbers are computed in the database', async () => {
    const overview = await mq.get('/api/v1/dashboard/overview', mq.adminKey);
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE status = 'PENDING'`);
    expect(overview.body.pending).toBe(rows[0].n);
    expect(overview.body.topics).toBeGreaterThanOrEqual(5);
  });
});
