import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { ratePrune } from '../../src/jobs/ratePrune.js';
import { ratesSeries, type RateSource } from '../../src/db/queries/rates.js';
import { resolutionFor, sourceFor } from '../../src/stats/rateSeries.js';
import { BUCKET_MS, RateCounter, bucketOf } from '../../src/stats/rateCounter.js';
import { RateRecorder } from '../../src/stats/rateRecorder.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'orders', [{ name: 'billing', max_retries: 0 }, { name: 'shipping' }]);
  await topology(mq, 'quiet', [{ name: 'idle' }]);
});
afterAll(() => mq.stop());

const flush = () => mq.broker.core.rateRecorder.runOnce();
type Bucket = Record<string, number | string | null>;
const sum = (buckets: Bucket[], field: string) => buckets.reduce((total, b) => total + Number(b[field]), 0);

async function series(query = '') {
  const response = await mq.get(`/api/v1/dashboard/rates${query}`, mq.adminKey);
  expect(response.status).toBe(200);
  return response.body as { queue: string | null; resolution_seconds: number; window_seconds: number; from: string; to: string; buckets: Bucket[] };
}

describe('message rates', () => {
  it('counts publishes to topics apart from the copies stored in queues, and every transition per queue', async () => {
    for (let i = 0; i < 3; i++) await publishOne(mq, 'orders', `order ${i}`);
    const claimed = await mq.post('/api/v1/queues/billing/consume', undefined, mq.adminKey);
    await mq.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, mq.adminKey);
    const nacked = await mq.post('/api/v1/queues/shipping/consume', undefined, mq.adminKey);
    await mq.post(`/api/v1/messages/${nacked.body.message_id}/nack`, { requeue: true }, mq.adminKey);
    // billing has no retries: an expired lease there is a death, in shipping a redelivery.
    await mq.post('/api/v1/queues/billing/consume', undefined, mq.adminKey);
    await mq.post('/api/v1/queues/shipping/consume', undefined, mq.adminKey);
    await expireAllLeases(mq);
    await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
    await flush();

    const all = await series();
    expect(all).toMatchObject({ queue: null, window_seconds: 3600, resolution_seconds: 5 });
    expect(all.buckets).toHaveLength(720);
    expect(sum(all.buckets, 'published')).toBe(3);
    expect(sum(all.buckets, 'enqueued')).toBe(6);
    expect(sum(all.buckets, 'delivered')).toBe(4);
    expect(sum(all.buckets, 'acked')).toBe(1);
    expect(sum(all.buckets, 'nacked')).toBe(1);
    expect(sum(all.buckets, 'dead')).toBe(1);
    expect(sum(all.buckets, 'redelivered')).toBe(1);

    const billing = await series('?queue=billing');
    expect(billing.queue).toBe('billing');
    expect(['published', 'enqueued', 'delivered', 'acked', 'dead', 'redelivered'].map((f) => sum(billing.buckets, f))).toEqual([3, 3, 2, 1, 1, 0]);
    const idle = await series('?queue=idle');
    expect(sum(idle.buckets, 'published') + sum(idle.buckets, 'enqueued')).toBe(0);
  });

  it('adds the counts of every write to the same bucket (instances add up, never overwrite)', async () => {
    const before = sum((await series('?queue=shipping')).buckets, 'enqueued');
    await publishOne(mq, 'orders', 'a');
    await flush();
    await publishOne(mq, 'orders', 'b');
    await flush();
    expect(sum((await series('?queue=shipping')).buckets, 'enqueued')).toBe(before + 2);
  });

  it('keeps per-minute totals that agree with the buckets, depth included', async () => {
    await publishOne(mq, 'orders', 'c');
    // The depth is sampled by a bucket's first write: one in the next bucket sees what is pending now,
    // whichever writer (this flush or the broker's own 5-second one) gets there first.
    const nextBucket = bucketOf(Date.now()) + BUCKET_MS;
    await new Promise((resolve) => setTimeout(resolve, nextBucket - Date.now() + 20));
    await flush();
    const read = (queue: string | null, source: RateSource) => ratesSeries(mq.pool, { queue, fromMs: Date.now() - 3_600_000, resolutionSeconds: 60, source });
    for (const queue of [null, 'billing', 'shipping', 'idle']) {
      const [buckets, minutes] = [await read(queue, 'buckets'), await read(queue, 'minutes')];
      expect(minutes).toEqual(buckets);
      expect(minutes.some((row) => row.depth !== null && row.depth > 0)).toBe(queue === null || queue === 'billing' || queue === 'shipping');
    }
    // A day is read from the minutes, in whole minutes.
    expect(sourceFor(resolutionFor(86_400, 5))).toBe('minutes');
    expect(sourceFor(resolutionFor(3_600, 5))).toBe('buckets');
  });

  it('samples the depth of every queue once per bucket, the first writer only', async () => {
    // A recorder whose clock says half an hour ago, so the broker's own writes never touch its bucket.
    const at = bucketOf(Date.now()) - 30 * 60_000;
    const recorder = new RateRecorder(
      mq.pool,
      new RateCounter(),
      () => undefined,
      () => at + BUCKET_MS + 50,
    );
    const depthAt = async (queue: string) =>
      (await mq.pool.query('SELECT depth FROM queue_rate WHERE queue_name = $1 AND bucket = $2', [queue, new Date(at)])).rows[0]?.depth;
    await recorder.runOnce();
    const pending = (await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = 'shipping' AND status = 'PENDING'`)).rows[0].n;
    expect(pending).toBeGreaterThan(0);
    expect(await depthAt('shipping')).toBe(pending);
    // A second write for the same bucket (another instance, say) finds the sample taken and counts nothing.
    await mq.pool.query('UPDATE queue_rate SET depth = depth + 1000 WHERE queue_name = $1 AND bucket = $2', ['shipping', new Date(at)]);
    await recorder.runOnce();
    expect(await depthAt('shipping')).toBe(pending + 1000);
    // The series reads it, and a queue with nothing pending in a sampled bucket has depth 0.
    const bucketOfSeries = async (queue: string) => (await series(`?queue=${queue}`)).buckets.find((b) => Date.parse(b.at as string) === at);
    expect((await bucketOfSeries('shipping'))?.depth).toBe(pending + 1000);
    expect((await bucketOfSeries('idle'))?.depth).toBe(0);
  });

  it('raises the resolution when the window would need too many buckets', async () => {
    const day = await series('?window_seconds=86400&resolution_seconds=5');
    expect(day.resolution_seconds).toBe(60);
    expect(day.buckets.length).toBeLessThanOrEqual(1441);
    expect(Date.parse(day.to) - Date.parse(day.buckets.at(-1)?.at as string)).toBe(60_000);
    expect(sum(day.buckets, 'published')).toBe(sum((await series()).buckets, 'published'));
    const minute = await series('?window_seconds=60&resolution_seconds=30');
    expect(minute.buckets.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an unknown queue and a resolution that is not a multiple of 5', async () => {
    expect((await mq.get('/api/v1/dashboard/rates?queue=nope', mq.adminKey)).body.code).toBe('queue_not_found');
    expect((await mq.get('/api/v1/dashboard/rates?resolution_seconds=7', mq.adminKey)).status).toBe(400);
    expect((await mq.get('/api/v1/dashboard/rates?window_seconds=86401', mq.adminKey)).status).toBe(400);
  });

  it('the queue stats carry rates, consumers seen and a depth history', async () => {
    await mq.pool.query(`UPDATE queue_rate SET bucket = bucket - interval '10 seconds'`);
    await mq.pool.query(`UPDATE rate_sample SET bucket = bucket - interval '10 seconds'`);
    await flush();
    const stats = (await mq.get('/api/v1/dashboard/queues', mq.adminKey)).body;
    const billing = stats.find((row: { queue: string }) => row.queue === 'billing');
    // 3 orders, then 2 more and 1 more (the tests before).
    expect(billing.enqueued_per_second).toBeCloseTo(6 / 60);
    expect(billing.delivered_per_second).toBeCloseTo(2 / 60);
    expect(billing.pollers).toBe(1);
    expect(billing.websocket_consumers).toBe(0);
    expect(billing.depth_history).toHaveLength(60);
    expect(billing.depth_history.at(-1)).not.toBeNull();
    const idle = stats.find((row: { queue: string }) => row.queue === 'idle');
    expect([idle.enqueued_per_second, idle.pollers]).toEqual([0, 0]);
  });

  it('prunes buckets older than a day', async () => {
    await mq.pool.query(`UPDATE queue_rate SET bucket = bucket - interval '25 hours' WHERE queue_name = 'billing'`);
    await ratePrune(mq.pool).runOnce();
    expect((await mq.pool.query(`SELECT count(*)::int AS n FROM queue_rate WHERE queue_name = 'billing'`)).rows[0].n).toBe(0);
    expect((await mq.pool.query(`SELECT count(*)::int AS n FROM queue_rate WHERE queue_name = 'shipping'`)).rows[0].n).toBeGreaterThan(0);
  });
});
