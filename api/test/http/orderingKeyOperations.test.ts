import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

/**
 * Ordering keys through the operators' transitions: bulk dead-letter replay and delete, replay
 * from history, nack reasons, the listing with totals and the header filter, a message by id.
 */
let mq: TestBroker;
let worker: string;

const publish = async (topic: string, payload: string, orderingKey: string, headers: Record<string, string> = {}) => {
  const response = await mq.post(`/api/v1/topics/${topic}/messages`, { payload, ordering_key: orderingKey, headers }, mq.adminKey);
  expect(response.status).toBe(201);
  return response.body.message_ids[0] as string;
};
const consume = async (queue: string) => {
  const response = await mq.post(`/api/v1/queues/${queue}/consume`, undefined, worker);
  return response.status === 204 ? null : (response.body as { message_id: string; payload: string; headers: Record<string, string> });
};
const ack = async (id: string) => expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, worker)).status).toBe(200);
const kill = async (queue: string, reason: string) => {
  const held = await consume(queue);
  expect((await mq.post(`/api/v1/messages/${held!.message_id}/nack`, { requeue: false, reason }, worker)).status).toBe(200);
  return held!.message_id;
};
const statusOf = async (id: string) => (await mq.get(`/api/v1/messages/${id}`, mq.adminKey)).body.status as string;
/** The group's live count must be what the live table holds of the key. */
const groupMatchesLiveRows = async (queue: string, key: string) => {
  const { rows } = await mq.pool.query(
    `SELECT g.live, (SELECT count(*)::int FROM message m WHERE m.queue_name = g.queue_name AND m.ordering_key = g.ordering_key) AS rows
       FROM ordering_group g WHERE g.queue_name = $1 AND g.ordering_key = $2`,
    [queue, key],
  );
  expect(rows[0].live).toBe(rows[0].rows);
};

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_ACKED_RETENTION_HOURS: '24' } });
  worker = await mq.clientKey('keyed-operator-worker', ['consume:*']);
});
afterAll(() => mq.stop());

describe('ordering keys and operator transitions', () => {
  it('a nack with a reason lets the next through; a bulk replay by ids or by filter appends the dead to their key', async () => {
    await topology(mq, 'bulk', [{ name: 'bulk-q', max_retries: 0 }]);
    await publish('bulk', 'b1', 'b');
    await publish('bulk', 'b2', 'b');
    await publish('bulk', 'b3', 'b', { region: 'eu' });
    const b1 = await kill('bulk-q', 'bad address');
    const b2 = await kill('bulk-q', 'bad amount');
    const dead = await mq.get('/api/v1/dashboard/dlq?queue=bulk-q', mq.adminKey);
    expect(
      dead.body.items.map((m: { dead_reason: string; dead_detail: string; ordering_key: string }) => [m.dead_reason, m.dead_detail, m.ordering_key]),
    ).toEqual([
      ['NACKED', 'bad address', 'b'],
      ['NACKED', 'bad amount', 'b'],
    ]);
    const b3 = await consume('bulk-q');
    expect(b3?.payload).toBe('b3');

    // b1 by id, b2 by filter, both while b3 is held: they wait behind it, in that order.
    expect((await mq.post('/api/v1/dashboard/dlq/batch-replay', { ids: [b1] }, mq.adminKey)).status).toBe(200);
    expect((await mq.post('/api/v1/dashboard/dlq/replay', { queue: 'bulk-q' }, mq.adminKey)).body).toEqual({ replayed: 1 });
    await groupMatchesLiveRows('bulk-q', 'b');
    expect(await consume('bulk-q')).toBeNull();
    // Waiting behind their key is PENDING to every reader: by id, in the listing and its total.
    expect(await statusOf(b1)).toBe('PENDING');
    const pending = await mq.get('/api/v1/queues/bulk-q/messages?status=PENDING&order=desc', mq.adminKey);
    expect(pending.body).toMatchObject({ total: 2, total_exact: true });
    expect(pending.body.items.map((m: { message_id: string; status: string }) => [m.message_id, m.status])).toEqual([
      [b2, 'PENDING'],
      [b1, 'PENDING'],
    ]);
    const byHeader = await mq.get('/api/v1/queues/bulk-q/messages?header=region%3Deu', mq.adminKey);
    expect(byHeader.body.items.map((m: { message_id: string }) => m.message_id)).toEqual([b3!.message_id]);

    await ack(b3!.message_id);
    const next = await consume('bulk-q');
    expect(next?.message_id).toBe(b1);
    await ack(b1);
    expect((await consume('bulk-q'))?.message_id).toBe(b2);
  });

  it('deleting dead letters, one or in bulk, leaves the key of the live messages as it is', async () => {
    await topology(mq, 'gone', [{ name: 'gone-q', max_retries: 0 }]);
    for (const payload of ['g1', 'g2', 'g3', 'g4']) await publish('gone', payload, 'g');
    const g1 = await kill('gone-q', 'one');
    const g2 = await kill('gone-q', 'two');
    const g3 = await consume('gone-q');
    expect((await mq.del(`/api/v1/dashboard/dlq/${g1}`, mq.adminKey)).status).toBe(204);
    expect((await mq.post('/api/v1/dashboard/dlq/batch-delete', { ids: [g2] }, mq.adminKey)).status).toBe(200);
    await groupMatchesLiveRows('gone-q', 'g');
    expect(await consume('gone-q')).toBeNull();
    await ack(g3!.message_id);
    expect((await consume('gone-q'))?.payload).toBe('g4');
  });

  it('replay from history appends the copies of keyed messages to their key, behind what is live', async () => {
    await topology(mq, 'hist', [{ name: 'hist-q' }]);
    const since = new Date(Date.now() - 1000).toISOString();
    await publish('hist', 'h1', 'h');
    await publish('hist', 'h2', 'h');
    for (let m = await consume('hist-q'); m; m = await consume('hist-q')) await ack(m.message_id);
    await publish('hist', 'h3', 'h');
    const h3 = await consume('hist-q');
    expect(h3?.payload).toBe('h3');

    const replayed = await mq.post('/api/v1/queues/hist-q/replay', { since }, mq.adminKey);
    expect(replayed.body).toMatchObject({ messages: 2 });
    await groupMatchesLiveRows('hist-q', 'h');
    expect(await consume('hist-q')).toBeNull();
    const listed = await mq.get('/api/v1/queues/hist-q/messages?status=PENDING', mq.adminKey);
    expect(listed.body.items.map((m: { payload: string; status: string; ordering_key: string }) => [m.payload, m.status, m.ordering_key])).toEqual([
      ['h1', 'PENDING', 'h'],
      ['h2', 'PENDING', 'h'],
    ]);

    await ack(h3!.message_id);
    const copy1 = await consume('hist-q');
    expect(copy1?.payload).toBe('h1');
    expect(await consume('hist-q')).toBeNull();
    await ack(copy1!.message_id);
    expect((await consume('hist-q'))?.payload).toBe('h2');
  });
});
