import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, publishOne, statusOf, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'jobs', [
    { name: 'work', max_retries: 1 },
    { name: 'audit', max_retries: 0 },
  ]);
});
afterAll(() => mq.stop());

const consume = async (queue: string) => (await mq.post(`/api/v1/queues/${queue}/consume`, undefined, mq.adminKey)).body.message_id as string;
const nack = (id: string, body: object) => mq.post(`/api/v1/messages/${id}/nack`, body, mq.adminKey);
const dlq = async (query = '') => (await mq.get(`/api/v1/dashboard/dlq${query}`, mq.adminKey)).body;
const sweep = async () => {
  await expireAllLeases(mq);
  await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
};
const purgeDead = () => mq.pool.query('DELETE FROM message_dead');

describe('nack reasons and dead letters that explain themselves', () => {
  it('records how and why each message died, and when', async () => {
    await purgeDead();
    // A consumer refuses one outright, with its reason.
    await publishOne(mq, 'jobs', 'refused');
    const refused = await consume('work');
    expect((await nack(refused, { requeue: false, reason: 'invalid payload: no order id' })).body.status).toBe('DEAD');
    // Another is nacked for a retry twice; its retries (1) run out on the second.
    await publishOne(mq, 'jobs', 'flaky');
    const flaky = await consume('work');
    await nack(flaky, { reason: 'timeout calling the mailer' });
    expect(await consume('work')).toBe(flaky);
    expect((await nack(flaky, { reason: 'mailer down' })).body.status).toBe('DEAD');
    // In audit (no retries) the lease runs out, after an earlier nack reason elsewhere does not matter.
    const lost = await consume('audit');
    await consume('audit');
    await sweep();

    const page = await dlq();
    const byId = new Map(page.items.map((m: { message_id: string }) => [m.message_id, m]));
    expect(byId.get(refused)).toMatchObject({ status: 'DEAD', dead_reason: 'NACKED', dead_detail: 'invalid payload: no order id' });
    expect(byId.get(flaky)).toMatchObject({ dead_reason: 'RETRIES_EXHAUSTED', dead_detail: 'retries exhausted after 2 deliveries: mailer down' });
    expect(byId.get(lost)).toMatchObject({ dead_reason: 'EXPIRED', dead_detail: 'lease expired 1 time, retries exhausted after 1 delivery' });
    for (const item of page.items) expect(Date.now() - Date.parse(item.dead_at)).toBeLessThan(60_000);
    expect(page).toMatchObject({ total: 4, total_exact: true });
    // A dead message listed through its queue carries the same.
    const listed = (await mq.get('/api/v1/queues/work/messages?status=DEAD', mq.adminKey)).body.items;
    expect(listed.map((m: { dead_reason: string }) => m.dead_reason).sort()).toEqual(['NACKED', 'RETRIES_EXHAUSTED']);
    // Live messages carry no dead_* fields.
    await publishOne(mq, 'jobs', 'alive');
    const live = (await mq.get('/api/v1/queues/work/messages?status=PENDING', mq.adminKey)).body.items[0];
    expect(Object.keys(live).filter((key) => key.startsWith('dead_'))).toEqual([]);
  });

  it('a lease that runs out after a nack tells both', async () => {
    await mq.pool.query(`DELETE FROM message WHERE queue_name = 'work'`);
    await publishOne(mq, 'jobs', 'slow');
    const slow = await consume('work');
    await nack(slow, { reason: 'busy' });
    await consume('work');
    await sweep();
    const [item] = (await dlq('?queue=work&reason=EXPIRED')).items;
    expect(item).toMatchObject({ message_id: slow, dead_detail: 'lease expired 1 time, retries exhausted after 2 deliveries; last nack: busy' });
  });

  it('filters the dead letters by queue and by kind of death', async () => {
    expect((await dlq('?reason=NACKED')).items.map((m: { dead_reason: string }) => m.dead_reason)).toEqual(['NACKED']);
    expect((await dlq('?queue=audit')).items.every((m: { queue: string }) => m.queue === 'audit')).toBe(true);
    expect((await dlq('?queue=audit&reason=NACKED')).items).toEqual([]);
    expect((await mq.get('/api/v1/dashboard/dlq?reason=LOST', mq.adminKey)).status).toBe(400);
  });

  it('refuses a nack reason over 500 characters or with NUL, and takes an empty one as none', async () => {
    await publishOne(mq, 'jobs', 'x');
    const id = await consume('work');
    for (const reason of ['x'.repeat(501), 'a\u0000b', 42]) {
      const refused = await nack(id, { reason });
      expect([refused.status, refused.body.code]).toEqual([400, 'validation_failed']);
    }
    expect((await nack(id, { requeue: false, reason: '' })).status).toBe(200);
    const item = (await dlq('?queue=work&reason=NACKED')).items.find((m: { message_id: string }) => m.message_id === id);
    expect(item.dead_detail).toBe('nacked without requeue');
  });

  it('replays and deletes a selection of ids, reporting each one', async () => {
    const dead = (await dlq('?queue=work')).items.map((m: { message_id: string }) => m.message_id);
    await publishOne(mq, 'jobs', 'pending');
    const pending = (await mq.get('/api/v1/queues/work/messages?status=PENDING', mq.adminKey)).body.items[0].message_id;
    const unknown = '0190a5a4-0000-7000-8000-000000000000';
    const replayed = await mq.post('/api/v1/dashboard/dlq/batch-replay', { ids: [dead[0], dead[0], pending, unknown] }, mq.adminKey);
    expect(replayed.status).toBe(200);
    expect(replayed.body.succeeded).toEqual([dead[0]]);
    expect(replayed.body.failed).toEqual([
      { message_id: pending, status: 409, code: 'message_not_dead', message: `Message ${pending} is PENDING, not DEAD` },
      { message_id: unknown, status: 404, code: 'message_not_found', message: `No message found with the id ${unknown}` },
    ]);
    expect(await statusOf(mq, dead[0])).toMatchObject({ status: 'PENDING', retry_count: 0 });

    const deleted = await mq.post('/api/v1/dashboard/dlq/batch-delete', { ids: [dead[1], dead[0]] }, mq.adminKey);
    expect(deleted.body).toMatchObject({ succeeded: [dead[1]], failed: [{ message_id: dead[0], code: 'message_not_dead' }] });
    expect(await statusOf(mq, dead[1])).toBeUndefined();
    expect(await statusOf(mq, dead[0])).toMatchObject({ status: 'PENDING' });
  });

  it('replays and deletes everything matching a filter', async () => {
    await purgeDead();
    for (let i = 0; i < 3; i++) {
      await publishOne(mq, 'jobs', `bad ${i}`);
      await nack(await consume('audit'), { requeue: false, reason: 'bad' });
    }
    await consume('audit');
    await sweep();
    expect((await mq.post('/api/v1/dashboard/dlq/replay', { queue: 'audit', reason: 'NACKED', limit: 2 }, mq.adminKey)).body).toEqual({ replayed: 2 });
    expect((await dlq('?queue=audit')).items.map((m: { dead_reason: string }) => m.dead_reason).sort()).toEqual(['EXPIRED', 'NACKED']);
    expect((await mq.post('/api/v1/dashboard/dlq/delete', { reason: 'EXPIRED' }, mq.adminKey)).body).toEqual({ deleted: 1 });
    expect((await mq.post('/api/v1/dashboard/dlq/delete', {}, mq.adminKey)).body).toEqual({ deleted: 1 });
    expect((await dlq()).items).toEqual([]);
    expect((await mq.post('/api/v1/dashboard/dlq/delete', { queue: 'nope' }, mq.adminKey)).body.code).toBe('queue_not_found');
  });

  it('bulk operations need admin', async () => {
    const viewer = await mq.clientKey('dlq-viewer', ['view']);
    for (const path of ['batch-replay', 'batch-delete', 'replay', 'delete']) {
      const body = path.startsWith('batch') ? { ids: ['0190a5a4-0000-7000-8000-000000000000'] } : {};
      expect((await mq.post(`/api/v1/dashboard/dlq/${path}`, body, viewer)).status).toBe(403);
    }
  });
});
