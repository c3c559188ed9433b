import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

/** Bounded queues: settings, reject_publish (single, batch, fan-out, group commit), making room, replays. */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(() => mq?.stop());

const topic = async (name: string, queues: Record<string, unknown>[]) => {
  expect((await mq.post('/api/v1/topics', { name }, mq.adminKey)).status).toBe(201);
  for (const queue of queues) {
    const response = await mq.post('/api/v1/queues', { topic_name: name, ...queue }, mq.adminKey);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  }
};
const publish = (name: string, payload: string) => mq.post(`/api/v1/topics/${name}/messages`, { payload }, mq.adminKey);
const publishBatch = (name: string, payloads: string[]) =>
  mq.post(`/api/v1/topics/${name}/messages/batch`, { messages: payloads.map((payload) => ({ payload })) }, mq.adminKey);
const live = async (queue: string) =>
  (await mq.pool.query<{ payload: string }>('SELECT payload FROM message WHERE queue_name = $1 ORDER BY seq', [queue])).rows.map((row) => row.payload);
const counters = async (queue: string) =>
  (
    await mq.pool.query<{ n: number; bytes: number; dead: number }>(
      'SELECT sum(pending + unacked)::int AS n, sum(bytes)::int AS bytes, sum(dead)::int AS dead FROM queue_counter WHERE queue_name = $1',
      [queue],
    )
  ).rows[0];

describe('bounded queue settings', () => {
  it('are stored, shown, changed and removed; a queue without them shows null bounds', async () => {
    await topic('b-settings', [{ name: 'bs-plain' }, { name: 'bs-bounded', max_messages: 10, max_bytes: 1000, overflow: 'drop_oldest' }]);
    expect((await mq.get('/api/v1/queues/bs-plain', mq.adminKey)).body).toMatchObject({ max_messages: null, max_bytes: null, overflow: 'reject_publish' });
    expect((await mq.get('/api/v1/queues/bs-bounded', mq.adminKey)).body).toMatchObject({ max_messages: 10, max_bytes: 1000, overflow: 'drop_oldest' });
    const changed = await mq.patch('/api/v1/queues/bs-bounded', { max_bytes: null, overflow: 'dead_letter_oldest' }, mq.adminKey);
    expect(changed.body).toMatchObject({ max_messages: 10, max_bytes: null, overflow: 'dead_letter_oldest' });
  });

  it('that are not valid are a 400 naming the field', async () => {
    for (const [field, value] of [
      ['max_messages', 0],
      ['max_bytes', -1],
      ['max_messages', 1.5],
      ['overflow', 'drop_newest'],
    ] as const) {
      const response = await mq.post('/api/v1/queues', { name: 'bs-bad', topic_name: 'b-settings', [field]: value }, mq.adminKey);
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });
});

describe('reject_publish', () => {
  beforeAll(() => topic('b-reject', [{ name: 'br-bounded', max_messages: 3 }, { name: 'br-free' }]));

  it('refuses the publish that does not fit, with 429 queue_full naming the queue and its limit, and Retry-After', async () => {
    for (const payload of ['a', 'b', 'c']) expect((await publish('b-reject', payload)).status).toBe(201);
    const refused = await publish('b-reject', 'd');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('queue_full');
    expect(refused.body.message).toContain('br-bounded');
    expect(refused.body.message).toContain('max_messages 3');
    expect(refused.headers['retry-after']).toBe('1');
    // Nothing half-stored: the unbounded queue of the same topic did not get its copy either.
    expect(await live('br-bounded')).toEqual(['a', 'b', 'c']);
    expect(await live('br-free')).toEqual(['a', 'b', 'c']);
  });

  it('refuses a whole batch that does not fit, and takes one that does once room is made', async () => {
    const [first] = (await mq.post('/api/v1/queues/br-bounded/receive', { max_messages: 1 }, mq.adminKey)).body.messages;
    expect((await mq.post(`/api/v1/messages/${first.message_id}/ack`, {}, mq.adminKey)).status).toBe(200);
    const refused = await publishBatch('b-reject', ['e', 'f']);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('queue_full');
    expect(await live('br-bounded')).toEqual(['b', 'c']);
    expect((await publishBatch('b-reject', ['e'])).status).toBe(201);
    expect(await live('br-bounded')).toEqual(['b', 'c', 'e']);
    expect(await counters('br-bounded')).toMatchObject({ n: 3, bytes: 3 });
  });

  it('in one group commit refuses only the publishes that do not fit; the others of the group are stored', async () => {
    await topic('b-group', [{ name: 'bg-bounded', max_messages: 2 }]);
    await topic('b-group-free', [{ name: 'bg-free' }]);
    const before = mq.broker.context.publisher.groupCommitStats.batches;
    const answers = await Promise.all([
      ...['g1', 'g2', 'g3', 'g4'].map((payload) => publish('b-group', payload)),
      ...['h1', 'h2'].map((payload) => publish('b-group-free', payload)),
    ]);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 429, 429, 201, 201]);
    expect(answers[2].body.code).toBe('queue_full');
    expect(await live('bg-bounded')).toEqual(['g1', 'g2']);
    expect(await live('bg-free')).toEqual(['h1', 'h2']);
    expect(mq.broker.context.publisher.groupCommitStats.batches - before).toBeLessThanOrEqual(3);
  });

  it('bounds payload bytes with max_bytes', async () => {
    await topic('b-bytes', [{ name: 'bb-bounded', max_bytes: 10 }]);
    expect((await publish('b-bytes', 'ééé')).status).toBe(201); // 6 bytes in UTF-8
    expect((await publish('b-bytes', 'abcde')).status).toBe(429);
    expect((await publish('b-bytes', 'abcd')).status).toBe(201);
    expect(await counters('bb-bounded')).toMatchObject({ n: 2, bytes: 10 });
  });

  it('holds for a queue bounded after this instance last published to it', async () => {
    await topic('b-late', [{ name: 'bl-queue' }]);
    expect((await publish('b-late', 'x1')).status).toBe(201);
    expect((await publish('b-late', 'x2')).status).toBe(201);
    expect((await mq.patch('/api/v1/queues/bl-queue', { max_messages: 2 }, mq.adminKey)).status).toBe(200);
    expect((await publish('b-late', 'x3')).status).toBe(429);
    expect((await publishBatch('b-late', ['x4'])).status).toBe(429);
    expect((await mq.patch('/api/v1/queues/bl-queue', { max_messages: null }, mq.adminKey)).status).toBe(200);
    expect((await publish('b-late', 'x5')).status).toBe(201);
    expect(await live('bl-queue')).toEqual(['x1', 'x2', 'x5']);
  });
});

describe('making room', () => {
  it('drop_oldest deletes the oldest pending messages in the publish transaction', async () => {
    await topic('b-drop', [{ name: 'bd-queue', max_messages: 2, overflow: 'drop_oldest' }]);
    for (const payload of ['a', 'b', 'c']) expect((await publish('b-drop', payload)).status).toBe(201);
    expect((await publishBatch('b-drop', ['d', 'e', 'f'])).status).toBe(201);
    expect(await live('bd-queue')).toEqual(['e', 'f']);
    expect(await counters('bd-queue')).toMatchObject({ n: 2, bytes: 2, dead: 0 });
  });

  it('dead_letter_oldest moves them to the dead letters with reason OVERFLOW, never an unacked one', async () => {
    await topic('b-dead', [{ name: 'bdl-queue', max_messages: 2, overflow: 'dead_letter_oldest' }]);
    for (const payload of ['a', 'b']) expect((await publish('b-dead', payload)).status).toBe(201);
    const held = (await mq.post('/api/v1/queues/bdl-queue/receive', { max_messages: 1 }, mq.adminKey)).body.messages[0];
    expect(held.payload).toBe('a');
    expect((await publish('b-dead', 'c')).status).toBe(201);
    expect(await live('bdl-queue')).toEqual(['a', 'c']);
    const dead = await mq.pool.query('SELECT payload, dead_reason FROM message_dead WHERE queue_name = $1', ['bdl-queue']);
    expect(dead.rows).toEqual([{ payload: 'b', dead_reason: 'OVERFLOW' }]);
    expect(await counters('bdl-queue')).toMatchObject({ n: 2, dead: 1 });
  });
});

describe('replays into a bounded queue', () => {
  it('are refused with queue_full when they do not fit, and leave the dead letter where it was', async () => {
    await topic('b-replay', [{ name: 'brp-queue', max_messages: 2, overflow: 'dead_letter_oldest' }]);
    for (const payload of ['a', 'b', 'c']) expect((await publish('b-replay', payload)).status).toBe(201);
    const { rows } = await mq.pool.query('SELECT id FROM message_dead WHERE queue_name = $1', ['brp-queue']);
    const refused = await mq.post(`/api/v1/dashboard/dlq/${rows[0].id}/replay`, {}, mq.adminKey);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('queue_full');
    expect(refused.body.message).toContain('replay');
    expect((await mq.pool.query('SELECT 1 FROM message_dead WHERE id = $1', [rows[0].id])).rowCount).toBe(1);
    expect(await counters('brp-queue')).toMatchObject({ n: 2, dead: 1 });
  });
});
