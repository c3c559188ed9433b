import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retention } from '../../src/jobs/retention.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_ACKED_RETENTION_HOURS: '24' } });
  await topology(mq, 'ret', [{ name: 'kept' }, { name: 'forgotten' }]);
  expect((await mq.patch('/api/v1/queues/forgotten', { acked_retention_hours: 0 }, mq.adminKey)).status).toBe(200);
});
afterAll(() => mq.stop());

async function consumeAndAck(queue: string): Promise<string> {
  const claimed = await mq.post(`/api/v1/queues/${queue}/consume`, undefined, mq.adminKey);
  expect((await mq.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, mq.adminKey)).status).toBe(200);
  return claimed.body.message_id;
}

const ackedIds = async (queue: string) =>
  (await mq.get(`/api/v1/queues/${queue}/messages?status=ACKED`, mq.adminKey)).body.items.map((m: { message_id: string }) => m.message_id);
const countIn = async (table: string) => (await mq.pool.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n as number;

describe('acked retention', () => {
  it('keeps acked messages where the queue retains them, and none where it does not; counts both', async () => {
    await publishOne(mq, 'ret', 'one');
    const kept = await consumeAndAck('kept');
    const forgotten = await consumeAndAck('forgotten');
    expect(await ackedIds('kept')).toEqual([kept]);
    expect(await ackedIds('forgotten')).toEqual([]);
    expect((await mq.pool.query('SELECT id FROM message_acked')).rows.map((row) => row.id)).toEqual([kept]);
    expect(forgotten).not.toBe(kept);
    // The acked count comes from counters, so it counts what was not kept too.
    const stats = (await mq.get('/api/v1/dashboard/queues', mq.adminKey)).body;
    expect(stats.map((row: { queue: string; acked: number }) => [row.queue, row.acked])).toEqual([
      ['forgotten', 1],
      ['kept', 1],
    ]);
    expect((await mq.get('/api/v1/dashboard/overview', mq.adminKey)).body.acked).toBe(2);
  });

  it('a queue setting changes what is listed at once; null follows the broker default again', async () => {
    const [kept] = await ackedIds('kept');
    const patched = await mq.patch('/api/v1/queues/kept', { acked_retention_hours: 0 }, mq.adminKey);
    expect(patched.body).toMatchObject({ name: 'kept', acked_retention_hours: 0, ack_timeout_seconds: 30, max_retries: 5 });
    expect(await ackedIds('kept')).toEqual([]);
    expect((await mq.patch('/api/v1/queues/kept', { acked_retention_hours: null }, mq.adminKey)).body.acked_retention_hours).toBeNull();
    expect(await ackedIds('kept')).toEqual([kept]);
    expect((await mq.get('/api/v1/queues/kept', mq.adminKey)).body.acked_retention_hours).toBeNull();
  });

  it('expires history by dropping whole partitions, never deleting rows one by one', async () => {
    const job = retention(mq.pool, { ackedRetentionHours: 24, deadRetentionHours: 0 });
    const before = await mq.pool.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'message_acked'::regclass`);
    expect(await job.runOnce()).toMatchObject({ created: 0, dropped: 0 });
    // Everything acked until two hours from now is past retention: every partition up to then goes.
    const { rows } = await mq.pool.query(`SELECT miniqueue_acked_partitions_drop(now() + interval '2 hours') AS dropped`);
    expect(rows[0].dropped).toBeGreaterThanOrEqual(2);
    expect(await countIn('message_acked')).toBe(0);
    const deleted = await mq.pool.query(`SELECT coalesce(sum(n_tup_del), 0)::int AS n FROM pg_stat_user_tables WHERE relname LIKE 'message_acked%'`);
    expect(deleted.rows[0].n).toBe(0);
    // The next pass makes the coming hours' partitions again; acks go on meanwhile.
    await publishOne(mq, 'ret', 'two');
    await consumeAndAck('kept');
    expect((await job.runOnce()) as { created: number }).toMatchObject({ dropped: 0 });
    const after = await mq.pool.query(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'message_acked'::regclass`);
    expect(after.rows[0].n).toBeGreaterThan(20);
    expect(before.rows[0].n).toBeGreaterThan(20);
  });

  it('dead letters are deleted after their own retention, when one is set', async () => {
    await publishOne(mq, 'ret', 'doomed');
    const claimed = await mq.post('/api/v1/queues/kept/consume', undefined, mq.adminKey);
    await mq.post(`/api/v1/messages/${claimed.body.message_id}/nack`, { requeue: false }, mq.adminKey);
    await mq.post('/api/v1/queues/forgotten/consume', undefined, mq.adminKey);
    expect(await countIn('message_dead')).toBe(1);
    await retention(mq.pool, { ackedRetentionHours: 24, deadRetentionHours: 0 }).runOnce();
    expect(await countIn('message_dead')).toBe(1);
    await mq.pool.query(`UPDATE message_dead SET dead_at = now() - interval '2 hours'`);
    await retention(mq.pool, { ackedRetentionHours: 24, deadRetentionHours: 1 }).runOnce();
    expect(await countIn('message_dead')).toBe(0);
  });
});

describe('queue settings', () => {
  it('are read and changed one at a time; bad values are refused and change nothing', async () => {
    expect((await mq.patch('/api/v1/queues/kept', { max_retries: 2 }, mq.adminKey)).body).toMatchObject({ max_retries: 2, ack_timeout_seconds: 30 });
    for (const body of [{}, { max_retries: -1 }, { ack_timeout_seconds: '10' }, { acked_retention_hours: 9000 }, { name: 'x' }]) {
      expect((await mq.patch('/api/v1/queues/kept', body, mq.adminKey)).status).toBe(400);
    }
    expect((await mq.get('/api/v1/queues/kept', mq.adminKey)).body).toMatchObject({ max_retries: 2, ack_timeout_seconds: 30 });
    expect((await mq.patch('/api/v1/queues/nope', { max_retries: 1 }, mq.adminKey)).status).toBe(404);
    const viewer = await mq.clientKey('ret-viewer', ['view']);
    expect((await mq.get('/api/v1/queues/kept', viewer)).status).toBe(200);
    expect((await mq.patch('/api/v1/queues/kept', { max_retries: 1 }, viewer)).status).toBe(403);
  });
});
