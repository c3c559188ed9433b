import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, publishOne, statusOf, topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let first: string;
let second: string;
const sweep = async () => {
  await expireAllLeases(mq);
  return leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
};

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'jobs', [{ name: 'jobs-q', max_retries: 2, ack_timeout_seconds: 30 }]);
  first = await mq.clientKey('worker-1', ['consume:jobs-q']);
  second = await mq.clientKey('worker-2', ['consume:jobs-q']);
});
afterAll(() => mq.stop());

describe('leases, fencing, retries and the dead-letter queue', () => {
  it('a lost lease is redelivered, and the old holder’s late ack is refused', async () => {
    const [id] = await publishOne(mq, 'jobs', 'work');
    const claimed = await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    expect(Date.parse(claimed.body.lease_expires_at) - Date.parse(claimed.body.unacked_at)).toBe(30_000);
    expect(await sweep()).toBe(1);
    expect(await statusOf(mq, id)).toEqual({ status: 'PENDING', retry_count: 1, consumer_id: null });
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, first)).status).toBe(409);
    const again = await mq.post('/api/v1/queues/jobs-q/consume', undefined, second);
    expect(again.body).toMatchObject({ message_id: id, retry_count: 1, consumer_id: 'worker-2' });
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, first)).status).toBe(409);
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, second)).status).toBe(200);
  });

  it('an ack after the lease time but before redelivery still succeeds', async () => {
    const [id] = await publishOne(mq, 'jobs', 'late');
    await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    await expireAllLeases(mq);
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, first)).status).toBe(200);
    expect(await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce()).toBe(0);
  });

  it('extend moves the lease so the sweeper leaves the message alone', async () => {
    const [id] = await publishOne(mq, 'jobs', 'slow');
    await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    await expireAllLeases(mq);
    const extended = await mq.post(`/api/v1/messages/${id}/extend`, { seconds: 120 }, first);
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.lease_expires_at)).toBeGreaterThan(Date.now() + 100_000);
    expect(await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce()).toBe(0);
    await mq.post(`/api/v1/messages/${id}/ack`, undefined, first);
  });

  it('a nack with count_retry false hands the message back as it was claimed, even with its retries used up', async () => {
    const [id] = await publishOne(mq, 'jobs', 'handed back');
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
      await sweep();
    }
    // retry_count 2 = max_retries: a counted nack would kill it now; a hand back does not.
    await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    const handedBack = await mq.post(`/api/v1/messages/${id}/nack`, { count_retry: false }, first);
    expect(handedBack.body).toEqual({ message_id: id, status: 'PENDING' });
    expect(await statusOf(mq, id)).toEqual({ status: 'PENDING', retry_count: 2, consumer_id: null });
    const again = await mq.post('/api/v1/queues/jobs-q/consume', undefined, second);
    expect(again.body).toMatchObject({ message_id: id, retry_count: 2, consumer_id: 'worker-2' });
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, second)).status).toBe(200);
  });

  it('count_retry false has no effect on a nack without requeue: the message is dead-lettered', async () => {
    const [id] = await publishOne(mq, 'jobs', 'refused outright');
    expect((await mq.post('/api/v1/queues/jobs-q/consume', undefined, first)).body).toMatchObject({ message_id: id });
    const nacked = await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false, count_retry: false }, first);
    expect(nacked.body).toEqual({ message_id: id, status: 'DEAD' });
    // Gone again, so the cases below count only the dead letters they make.
    expect((await mq.del(`/api/v1/dashboard/dlq/${id}`, mq.adminKey)).status).toBe(204);
  });

  it('retries run out into DEAD after max_retries; replay brings it back with retry_count 0', async () => {
    const [id] = await publishOne(mq, 'jobs', 'poison');
    for (let attempt = 0; attempt <= 2; attempt += 1) {
      const claimed = await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
      expect(claimed.body).toMatchObject({ message_id: id, retry_count: attempt });
      await sweep();
    }
    expect(await statusOf(mq, id)).toEqual({ status: 'DEAD', retry_count: 2, consumer_id: 'worker-1' });
    expect((await mq.post('/api/v1/queues/jobs-q/consume', undefined, first)).status).toBe(204);

    const dlq = await mq.get('/api/v1/dashboard/dlq?queue=jobs-q', mq.adminKey);
    expect(dlq.body.items.map((m: { message_id: string }) => m.message_id)).toEqual([id]);
    expect((await mq.post(`/api/v1/dashboard/dlq/${id}/replay`, undefined, first)).status).toBe(403);
    expect((await mq.post(`/api/v1/dashboard/dlq/${id}/replay`, undefined, mq.adminKey)).body).toEqual({ message_id: id, status: 'PENDING' });
    expect((await mq.post(`/api/v1/dashboard/dlq/${id}/replay`, undefined, mq.adminKey)).status).toBe(409);
    expect(await statusOf(mq, id)).toEqual({ status: 'PENDING', retry_count: 0, consumer_id: null });
    const back = await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    await mq.post(`/api/v1/messages/${back.body.message_id}/ack`, undefined, first);
  });

  it('nack requeues with a delay and counts the retry; past max_retries it dead-letters', async () => {
    const [id] = await publishOne(mq, 'jobs', 'flaky');
    await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    expect((await mq.post(`/api/v1/messages/${id}/nack`, { delay_seconds: 60 }, first)).body).toEqual({ message_id: id, status: 'PENDING' });
    expect((await mq.post('/api/v1/queues/jobs-q/consume', undefined, first)).status).toBe(204);
    await mq.pool.query(`UPDATE message SET available_at = now() WHERE id = $1`, [id]);
    await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    await mq.post(`/api/v1/messages/${id}/nack`, undefined, first);
    await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
    const last = await mq.post(`/api/v1/messages/${id}/nack`, {}, first);
    expect(last.body.status).toBe('DEAD');
  });

  it('bulk replay returns every dead message of a queue, or up to a limit', async () => {
    for (let i = 0; i < 3; i += 1) {
      await publishOne(mq, 'jobs', `dead-${i}`);
      const claimed = await mq.post('/api/v1/queues/jobs-q/consume', undefined, first);
      await mq.post(`/api/v1/messages/${claimed.body.message_id}/nack`, { requeue: false }, first);
    }
    expect((await mq.post('/api/v1/dashboard/dlq/replay', { queue: 'jobs-q', limit: 1 }, mq.adminKey)).body).toEqual({ replayed: 1 });
    expect((await mq.post('/api/v1/dashboard/dlq/replay', { queue: 'jobs-q' }, mq.adminKey)).body).toEqual({ replayed: 3 });
    expect((await mq.post('/api/v1/dashboard/dlq/replay', { queue: 'nope' }, mq.adminKey)).status).toBe(404);
  });
});
