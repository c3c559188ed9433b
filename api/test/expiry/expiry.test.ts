import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expirySweeper } from '../../src/jobs/expirySweeper.js';
import { statsByQueue } from '../../src/db/queries/stats.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { openStream } from '../stream/support.js';
import { namesQueue, sentDuring } from '../helpers/statements.js';
import { topology } from '../helpers/fixtures.js';

/** Message expiry: per message and per queue (the earlier wins), never delivered once expired, dead-lettered or dropped by the sweep. */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq?.stop());

const topic = (name: string, queues: ({ name: string } & Record<string, unknown>)[]) => topology(mq, name, queues);
const publish = async (name: string, body: Record<string, unknown>) => {
  const response = await mq.post(`/api/v1/topics/${name}/messages`, body, mq.adminKey);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.message_ids as string[];
};
/** Seconds from publish to expiry of each copy, by queue (null: never). */
const lifetimes = async (ids: string[]) =>
  Object.fromEntries(
    (
      await mq.pool.query<{ queue_name: string; s: number | null }>(
        'SELECT queue_name, round(extract(epoch FROM expires_at - published_at))::int AS s FROM message WHERE id = ANY($1::uuid[])',
        [ids],
      )
    ).rows.map((row) => [row.queue_name, row.s]),
  );
/** Makes these messages' time to live run out now (instead of waiting for it). */
const expireNow = (ids: string[]) => mq.pool.query(`UPDATE message SET expires_at = now() - interval '1 millisecond' WHERE id = ANY($1::uuid[])`, [ids]);
const receive = async (queue: string, body: Record<string, unknown> = {}) =>
  (await mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: 10, ...body }, mq.adminKey)).body.messages as { message_id: string; payload: string }[];
const sweep = () => expirySweeper(mq.pool, mq.broker.context.changes).runOnce() as Promise<number>;
const where = async (id: string) =>
  (
    await mq.pool.query<{ place: string; dead_reason: string | null }>(
      `SELECT 'live' AS place, NULL AS dead_reason FROM message WHERE id = $1
       UNION ALL SELECT 'dead', dead_reason FROM message_dead WHERE id = $1`,
      [id],
    )
  ).rows[0] ?? { place: 'gone', dead_reason: null };

describe('expiry settings', () => {
  it('are stored, shown and changed; a queue without them shows null and dead_letter', async () => {
    await topic('x-settings', [{ name: 'xs-plain' }, { name: 'xs-ttl', message_ttl_seconds: 60, on_expiry: 'drop' }]);
    expect((await mq.get('/api/v1/queues/xs-plain', mq.adminKey)).body).toMatchObject({ message_ttl_seconds: null, on_expiry: 'dead_letter' });
    expect((await mq.get('/api/v1/queues/xs-ttl', mq.adminKey)).body).toMatchObject({ message_ttl_seconds: 60, on_expiry: 'drop' });
    const changed = await mq.patch('/api/v1/queues/xs-ttl', { message_ttl_seconds: null, on_expiry: 'dead_letter' }, mq.adminKey);
    expect(changed.body).toMatchObject({ message_ttl_seconds: null, on_expiry: 'dead_letter' });
  });

  it('that are not valid are a 400 naming the field, on queues and on publishes', async () => {
    for (const [field, value] of [
      ['message_ttl_seconds', 0],
      ['message_ttl_seconds', 1.5],
      ['message_ttl_seconds', 1_209_601],
      ['on_expiry', 'requeue'],
    ] as const) {
      const response = await mq.post('/api/v1/queues', { name: 'xs-bad', topic_name: 'x-settings', [field]: value }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    for (const value of [0, -1, 2.5, '10']) {
      const single = await mq.post('/api/v1/topics/x-settings/messages', { payload: 'p', expires_in_seconds: value }, mq.adminKey);
      expect(single.status).toBe(400);
      expect(single.body.errors.map((e: { field: string }) => e.field)).toContain('expires_in_seconds');
      const batch = await mq.post('/api/v1/topics/x-settings/messages/batch', { messages: [{ payload: 'p', expires_in_seconds: value }] }, mq.adminKey);
      expect(batch.status).toBe(400);
    }
  });
});

describe('the deadline of a copy', () => {
  beforeAll(() => topic('x-deadline', [{ name: 'xd-plain' }, { name: 'xd-ttl', message_ttl_seconds: 100 }]));

  it('is the earlier of the publish and the queue, null when neither says', async () => {
    expect(await lifetimes(await publish('x-deadline', { payload: 'none' }))).toEqual({ 'xd-plain': null, 'xd-ttl': 100 });
    expect(await lifetimes(await publish('x-deadline', { payload: 'short', expires_in_seconds: 30 }))).toEqual({ 'xd-plain': 30, 'xd-ttl': 30 });
    expect(await lifetimes(await publish('x-deadline', { payload: 'long', expires_in_seconds: 500 }))).toEqual({ 'xd-plain': 500, 'xd-ttl': 100 });
    const keyed = await publish('x-deadline', { payload: 'keyed', expires_in_seconds: 40, ordering_key: 'k' });
    expect(await lifetimes(keyed)).toEqual({ 'xd-plain': 40, 'xd-ttl': 40 });
    const batch = await mq.post(
      '/api/v1/topics/x-deadline/messages/batch',
      { messages: [{ payload: 'b1', expires_in_seconds: 20 }, { payload: 'b2' }] },
      mq.adminKey,
    );
    expect(batch.status).toBe(201);
    expect(await lifetimes(batch.body.results[0].message_ids)).toEqual({ 'xd-plain': 20, 'xd-ttl': 20 });
    expect(await lifetimes(batch.body.results[1].message_ids)).toEqual({ 'xd-plain': null, 'xd-ttl': 100 });
  });

  it('is shown on the message, and a change of the queue applies to what is published after', async () => {
    const [, ttl] = await publish('x-deadline', { payload: 'shown' });
    const message = (await mq.get(`/api/v1/messages/${ttl}`, mq.adminKey)).body;
    expect(Date.parse(message.expires_at) - Date.parse(message.published_at)).toBe(100_000);
    expect((await mq.patch('/api/v1/queues/xd-ttl', { message_ttl_seconds: 10 }, mq.adminKey)).status).toBe(200);
    expect(await lifetimes([ttl])).toEqual({ 'xd-ttl': 100 });
    expect(await lifetimes(await publish('x-deadline', { payload: 'after' }))).toEqual({ 'xd-plain': null, 'xd-ttl': 10 });
  });
});

describe('an expired message', () => {
  it('is never delivered by a claim, before the sweep has moved it', async () => {
    await topic('x-claim', [{ name: 'xc' }]);
    const [expired] = await publish('x-claim', { payload: 'old', expires_in_seconds: 60 });
    await publish('x-claim', { payload: 'fresh' });
    await expireNow([expired]);
    expect((await receive('xc')).map((m) => m.payload)).toEqual(['fresh']);
    expect((await receive('xc')).map((m) => m.payload)).toEqual([]);
  });

  it('is never delivered by the gated claim (single active consumer, rate limit, fair sharing)', async () => {
    await topic('x-gated', [
      { name: 'xg-sac', single_active_consumer: true },
      { name: 'xg-rate', max_deliveries_per_second: 1000 },
      { name: 'xg-fair', fairness: 'by_key' },
    ]);
    const ids = await publish('x-gated', { payload: 'old', expires_in_seconds: 60 });
    await publish('x-gated', { payload: 'fresh' });
    await expireNow(ids);
    expect((await receive('xg-sac')).map((m) => m.payload)).toEqual(['fresh']);
    expect((await receive('xg-rate')).map((m) => m.payload)).toEqual(['fresh']);
    expect((await receive('xg-fair')).map((m) => m.payload)).toEqual(['fresh']);
  });

  it('does not count as the oldest pending message, before the sweep has moved it', async () => {
    await topic('x-age', [{ name: 'xa' }]);
    const [expired] = await publish('x-age', { payload: 'old', expires_in_seconds: 60 });
    await mq.pool.query(`UPDATE message SET published_at = now() - interval '1 hour', available_at = now() - interval '1 hour' WHERE id = $1`, [expired]);
    const age = async () => (await statsByQueue(mq.pool)).find((row) => row.queue === 'xa')?.oldest_pending_age_seconds;
    expect(await age()).toBeGreaterThanOrEqual(3600);
    await expireNow([expired]);
    expect(await age()).toBe(0);
  });

  it('does not answer a long poll: it waits its time out, and is answered by a fresh one', async () => {
    await topic('x-poll', [{ name: 'xp' }]);
    await expireNow(await publish('x-poll', { payload: 'old', expires_in_seconds: 60 }));
    const started = Date.now();
    // It sleeps until its deadline: an expired message is not "the next available" one to wake up for.
    const sent = await sentDuring(async () => expect(await receive('xp', { wait_seconds: 1 })).toEqual([]));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const claims = sent.filter(namesQueue('xp')).filter((statement) => statement.text.includes('FOR UPDATE SKIP LOCKED'));
    expect(claims.length).toBeLessThanOrEqual(3);
    const waiting = receive('xp', { wait_seconds: 10 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    await publish('x-poll', { payload: 'fresh' });
    expect((await waiting).map((m) => m.payload)).toEqual(['fresh']);
  });

  it('is not delivered on a stream', async () => {
    await topic('x-stream', [{ name: 'xst' }]);
    await expireNow(await publish('x-stream', { payload: 'old', expires_in_seconds: 60 }));
    await publish('x-stream', { payload: 'fresh' });
    const stream = await openStream(mq, { key: mq.adminKey });
    try {
      stream.send({ type: 'subscribe', sub: 's', queue: 'xst', prefetch: 10 });
      const first = await stream.next((frame) => frame.type === 'deliver');
      expect(first.message.payload).toBe('fresh');
      // A publish frame with its own expiry is taken (and shown with it).
      stream.send({ type: 'publish', seq: 1, topic: 'x-stream', payload: 'framed', expires_in_seconds: 30 });
      const confirm = await stream.next((frame) => frame.type === 'confirm' && frame.seq === 1);
      expect(await lifetimes(confirm.message_ids)).toEqual({ xst: 30 });
      const framed = await stream.next((frame) => frame.type === 'deliver' && frame.message.payload === 'framed');
      expect(framed.message.expires_at).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stream.frames.filter((frame) => frame.type === 'deliver').map((frame) => frame.message.payload)).toEqual(['fresh', 'framed']);
    } finally {
      await stream.close();
    }
  });
});

describe('the expiry sweep', () => {
  it('dead-letters expired messages with TTL_EXPIRED, or drops them (on_expiry), and leaves the rest', async () => {
    await topic('x-sweep', [{ name: 'xw-dead' }, { name: 'xw-drop', on_expiry: 'drop' }]);
    // What the tests before left expired goes first.
    await sweep();
    const [dead, dropped] = await publish('x-sweep', { payload: 'old', expires_in_seconds: 60 });
    const kept = await publish('x-sweep', { payload: 'kept', expires_in_seconds: 60 });
    await expireNow([dead, dropped]);
    expect(await sweep()).toBe(2);
    expect(await where(dead)).toEqual({ place: 'dead', dead_reason: 'TTL_EXPIRED' });
    expect(await where(dropped)).toEqual({ place: 'gone', dead_reason: null });
    for (const id of kept) expect((await where(id)).place).toBe('live');
    const listed = (await mq.get(`/api/v1/messages/${dead}`, mq.adminKey)).body;
    expect(listed).toMatchObject({ status: 'DEAD', dead_reason: 'TTL_EXPIRED', dead_detail: 'time to live ran out before delivery' });
    // The dead letters can be filtered by the new reason, as by every other.
    const filtered = await mq.get('/api/v1/dashboard/dlq?queue=xw-dead&reason=TTL_EXPIRED', mq.adminKey);
    expect(filtered.status).toBe(200);
    expect(filtered.body.items.map((m: { message_id: string }) => m.message_id)).toEqual([dead]);
    expect(await sweep()).toBe(0);
  });

  it('leaves a message its consumer holds; it expires once its lease runs out', async () => {
    await topic('x-held', [{ name: 'xh', max_retries: 5 }]);
    const [id] = await publish('x-held', { payload: 'held', expires_in_seconds: 60 });
    expect((await receive('xh')).map((m) => m.message_id)).toEqual([id]);
    await expireNow([id]);
    expect(await sweep()).toBe(0);
    expect((await mq.post(`/api/v1/messages/${id}/nack`, { requeue: true }, mq.adminKey)).status).toBe(200);
    expect(await receive('xh')).toEqual([]);
    expect(await sweep()).toBe(1);
    expect(await where(id)).toEqual({ place: 'dead', dead_reason: 'TTL_EXPIRED' });
  });

  it('lets the next message of an expired ordering-key head be claimed', async () => {
    await topic('x-keyed', [{ name: 'xk' }]);
    const [head] = await publish('x-keyed', { payload: 'head', ordering_key: 'k', expires_in_seconds: 60 });
    await publish('x-keyed', { payload: 'next', ordering_key: 'k' });
    await expireNow([head]);
    expect(await receive('xk')).toEqual([]);
    expect(await sweep()).toBe(1);
    expect((await receive('xk')).map((m) => m.payload)).toEqual(['next']);
  });

  it('keeps the queue counters exact', async () => {
    await topic('x-count', [{ name: 'xn-dead' }, { name: 'xn-drop', on_expiry: 'drop' }]);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(...(await publish('x-count', { payload: `p${i}`, expires_in_seconds: 60 })));
    await expireNow(ids.slice(0, 6));
    await sweep();
    const { rows } = await mq.pool.query(
      `SELECT q AS queue,
              (SELECT row(sum(pending), sum(dead), sum(bytes))::text FROM queue_counter WHERE queue_name = q) AS counted,
              row((SELECT count(*) FROM message WHERE queue_name = q), (SELECT count(*) FROM message_dead WHERE queue_name = q),
                  (SELECT coalesce(sum(octet_length(payload)), 0) FROM message WHERE queue_name = q))::text AS actual
         FROM unnest(ARRAY['xn-dead', 'xn-drop']) AS q`,
    );
    expect(rows).toEqual([
      { queue: 'xn-dead', counted: '(2,3,4)', actual: '(2,3,4)' },
      { queue: 'xn-drop', counted: '(2,0,4)', actual: '(2,0,4)' },
    ]);
  });

  it('finds expired messages by the partial index on expires_at, not by reading a backlog without expiry', async () => {
    await topic('x-backlog', [{ name: 'xb' }]);
    const messages = Array.from({ length: 500 }, (_, i) => ({ payload: `b${i}` }));
    for (let i = 0; i < 6; i++) expect((await mq.post('/api/v1/topics/x-backlog/messages/batch', { messages }, mq.adminKey)).status).toBe(201);
    await expireNow(await publish('x-deadline', { payload: 'one to find', expires_in_seconds: 60 }));
    await mq.pool.query('ANALYZE message');
    // The statement the sweep sends, as it sends it.
    const [statement] = (await sentDuring(sweep)).filter((sent) => sent.text.includes('m.expires_at <= now()'));
    const { rows } = await mq.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.text}`, statement.values);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toContain('message_expires_idx');
    const index = await mq.pool.query<{ def: string }>(`SELECT pg_get_indexdef('message_expires_idx'::regclass) AS def`);
    expect(index.rows[0].def).toContain('WHERE (expires_at IS NOT NULL)');
  });
});
