import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ratePrune } from '../../src/jobs/ratePrune.js';
import { BUCKET_MS, RateCounter, bucketOf } from '../../src/stats/rateCounter.js';
import { RateRecorder } from '../../src/stats/rateRecorder.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { checkResponse } from '../helpers/contract.js';
import { publishOne, topology } from '../helpers/fixtures.js';

/**
 * GET /dashboard/queues gives the dashboard what the alert rules of prometheus/alerts.yml read, over
 * their windows: copies stored, delivered and acked over 5 minutes (whole buckets), dead and acked
 * over 10, and each queue's average oldest pending age over the last day.
 */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'orders', [{ name: 'counted' }, { name: 'usual' }]);
  await topology(mq, 'ages', [{ name: 'aged' }]);
});
afterAll(() => mq.stop());

async function queueStats(queue: string) {
  const response = await mq.get('/api/v1/dashboard/queues', mq.adminKey);
  checkResponse('GET', '/api/v1/dashboard/queues', response.status, response.body, String(response.headers['content-type']));
  return response.body.find((row: { queue: string }) => row.queue === queue);
}

/** Waits, if need be, until `at` (ms) is at least `margin` ms before the end of its period of `period` ms. */
async function clearOf(period: number, margin: number): Promise<void> {
  const left = period - (Date.now() % period);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('the counts the alert rules read', () => {
  it('are over their windows: 5 minutes of whole buckets, 10 minutes with the current one', async () => {
    await clearOf(BUCKET_MS, 1_500);
    const now = bucketOf(Date.now());
    const rows: [number, Record<string, number>][] = [
      [now, { enqueued: 1000, delivered: 1000, acked: 1000, dead: 1 }], // the bucket still filling
      [now - 5_000, { enqueued: 7, delivered: 3, acked: 2, dead: 1 }],
      [now - 300_000, { enqueued: 5 }], // the first bucket of the 5 minutes
      [now - 305_000, { enqueued: 1000, delivered: 1000, acked: 4, dead: 2 }], // before them, within the 10
      [now - 600_000, { dead: 7 }], // the first bucket of the 10 minutes
      [now - 605_000, { acked: 1000, dead: 1000 }], // before them
    ];
    for (const [at, counts] of rows) {
      await mq.pool.query(`INSERT INTO queue_rate (queue_name, bucket, enqueued, delivered, acked, dead) VALUES ('counted', $1, $2, $3, $4, $5)`, [
        new Date(at),
        counts.enqueued ?? 0,
        counts.delivered ?? 0,
        counts.acked ?? 0,
        counts.dead ?? 0,
      ]);
    }
    const stats = await queueStats('counted');
    expect(stats).toMatchObject({
      enqueued_last_5_minutes: 12,
      delivered_last_5_minutes: 3,
      acked_last_5_minutes: 2,
      dead_last_10_minutes: 11,
      acked_last_10_minutes: 1006,
    });
  });
});

describe("a queue's usual oldest pending age", () => {
  it('is sampled with the depth: the oldest age of each bucket added to its minute and its hour', async () => {
    const [id] = await publishOne(mq, 'ages', 'waiting');
    await mq.pool.query(`UPDATE message SET published_at = now() - interval '100 seconds' WHERE id = $1 AND queue_name = 'aged'`, [id]);
    // A recorder whose clock says three hours ago: the broker's own samples never write that hour.
    const at = bucketOf(Date.now()) - 3 * 3600_000;
    const recorder = new RateRecorder(
      mq.pool,
      new RateCounter(),
      () => undefined,
      () => at + BUCKET_MS + 50,
    );
    await recorder.runOnce();
    const { rows } = await mq.pool.query(
      `SELECT m.oldest_age_total::int AS minute, h.total::int AS hour FROM queue_rate_minute m, queue_oldest_age_hour h
        WHERE m.queue_name = 'aged' AND m.minute = date_bin('1 minute', $1::timestamptz, 'epoch')
          AND h.queue_name = 'aged' AND h.hour = date_bin('1 hour', $1::timestamptz, 'epoch')`,
      [new Date(at)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].minute).toBeGreaterThanOrEqual(100);
    expect(rows[0].minute).toBeLessThan(103);
    expect(rows[0].hour).toBe(rows[0].minute);
    // Nothing pending in 'usual': no age written for it, it counts as 0 at that sample.
    expect((await mq.pool.query(`SELECT 1 FROM queue_oldest_age_hour WHERE queue_name = 'usual'`)).rowCount).toBe(0);
  });

  it('is the average over the last day of samples, its first hour read from the minutes and the rest from the hours', async () => {
    await clearOf(60_000, 5_000);
    // Made two days ago, so its average spans the whole day; 1,000 samples taken over it.
    await mq.pool.query(`UPDATE queue SET created_at = now() - interval '2 days' WHERE name = 'usual'`);
    await mq.pool.query(
      `INSERT INTO rate_sample (bucket) SELECT date_bin('5 seconds', now(), 'epoch') - interval '2 hours' - n * interval '5 seconds'
         FROM generate_series(1, 1000) AS n ON CONFLICT DO NOTHING`,
    );
    const day = `(SELECT date_bin('1 minute', now() - interval '1 day', 'epoch') AS since) AS d`;
    await mq.pool.query(
      `INSERT INTO queue_rate_minute (queue_name, minute, oldest_age_total)
       SELECT 'usual', since, 10000 FROM ${day}                          -- the day's first minute: counted
       UNION ALL SELECT 'usual', since - interval '1 minute', 1000000 FROM ${day}`, // before it: not
    );
    await mq.pool.query(
      `INSERT INTO queue_oldest_age_hour (queue_name, hour, total)
       SELECT 'usual', date_bin('1 hour', since, 'epoch') + interval '1 hour', 50000 FROM ${day}   -- the first whole hour: counted
       UNION ALL SELECT 'usual', date_bin('1 hour', since, 'epoch'), 2000000 FROM ${day}`, // its minutes are read instead
    );
    const average = (await queueStats('usual')).oldest_pending_age_day_average_seconds;
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM rate_sample WHERE bucket >= now() - interval '1 day'`);
    // 60,000 over the samples (a few more than the 1,000 seeded: the broker samples every 5 seconds).
    expect(average).toBeLessThanOrEqual(60);
    expect(average).toBeCloseTo(60_000 / rows[0].n, 1);
  });

  it('counts, for a queue younger than a day, only the samples since it was made', async () => {
    await topology(mq, 'fresh', [{ name: 'young' }]);
    await mq.pool.query(`UPDATE queue SET created_at = now() - interval '30 seconds' WHERE name = 'young'`);
    await mq.pool.query(
      `INSERT INTO queue_oldest_age_hour (queue_name, hour, total) VALUES ('young', date_bin('1 hour', now(), 'epoch'), 900)
       ON CONFLICT (queue_name, hour) DO UPDATE SET total = queue_oldest_age_hour.total + 900`,
    );
    // At least one sample in its 30 seconds, whatever the recorder managed on a busy machine.
    await mq.pool.query(`INSERT INTO rate_sample (bucket) VALUES (to_timestamp(floor(extract(epoch FROM now()) / 5) * 5 - 5)) ON CONFLICT DO NOTHING`);
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM rate_sample WHERE bucket >= now() - interval '30 seconds'`);
    const average = (await queueStats('young')).oldest_pending_age_day_average_seconds;
    // A few of its own samples, not the 1,000 and more of the day.
    expect(rows[0].n).toBeGreaterThan(0);
    expect(average).toBeGreaterThanOrEqual(900 / (rows[0].n + 2));
  });

  it('is kept as long as the rates: older hours are pruned with the buckets', async () => {
    await mq.pool.query(
      `INSERT INTO queue_oldest_age_hour (queue_name, hour, total) VALUES ('usual', date_bin('1 hour', now() - interval '26 hours', 'epoch'), 1)`,
    );
    await ratePrune(mq.pool).runOnce();
    const { rows } = await mq.pool.query(`SELECT min(hour) < now() - interval '25 hours' AS old FROM queue_oldest_age_hour`);
    expect(rows[0].old).toBe(false);
  });
});

describe("a queue's attention settings: its own thresholds, or muted", () => {
  const DEFAULTS = { muted: false, oldest_pending_seconds: null, backlog_growth: null, dead_per_minute: null };
  const create = (body: Record<string, unknown>) => mq.post('/api/v1/queues', { topic_name: 'orders', ...body }, mq.adminKey);
  const patch = (queue: string, body: Record<string, unknown>) => mq.patch(`/api/v1/queues/${queue}`, body, mq.adminKey);

  it('are the defaults unless given, and are given back by the queue and by the dashboard counts', async () => {
    expect((await mq.get('/api/v1/queues/counted', mq.adminKey)).body.attention).toEqual(DEFAULTS);
    expect((await queueStats('counted')).attention).toEqual(DEFAULTS);
    const created = await create({ name: 'nightly', attention: { oldest_pending_seconds: 7200, backlog_growth: 10_000 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    checkResponse('POST', '/api/v1/queues', created.status, created.body, String(created.headers['content-type']));
    expect(created.body.attention).toEqual({ ...DEFAULTS, oldest_pending_seconds: 7200, backlog_growth: 10_000 });
    expect((await queueStats('nightly')).attention).toEqual({ ...DEFAULTS, oldest_pending_seconds: 7200, backlog_growth: 10_000 });
  });

  it('are set as a whole by PATCH (a key left out takes its default), and other settings keep theirs', async () => {
    await create({ name: 'scratch', max_retries: 7, attention: { dead_per_minute: 2.5 } });
    const muted = await patch('scratch', { attention: { muted: true } });
    expect(muted.status, JSON.stringify(muted.body)).toBe(200);
    checkResponse('PATCH', '/api/v1/queues/{queue}', muted.status, muted.body, String(muted.headers['content-type']));
    expect(muted.body).toMatchObject({ max_retries: 7, attention: { ...DEFAULTS, muted: true } });
    expect((await patch('scratch', { max_retries: 3 })).body.attention).toEqual({ ...DEFAULTS, muted: true });
    expect((await queueStats('scratch')).attention).toEqual({ ...DEFAULTS, muted: true });
    expect((await patch('scratch', { attention: {} })).body.attention).toEqual(DEFAULTS);
  });

  it('refuses what is not a threshold, in the contract\u2019s error shape, and changes nothing', async () => {
    await create({ name: 'strict', attention: { backlog_growth: 5 } });
    for (const attention of [
      { oldest_pending_seconds: 0 },
      { oldest_pending_seconds: 1.5 },
      { backlog_growth: -1 },
      { dead_per_minute: '3' },
      { muted: 'yes' },
      { snooze_until: '2030-01-01T00:00:00Z' },
      'muted',
    ]) {
      const refused = await patch('strict', { attention });
      expect(refused.status, JSON.stringify(attention)).toBe(400);
      expect(refused.body).toMatchObject({ status: 400, code: 'validation_failed' });
      expect(refused.body.errors[0].field, JSON.stringify(refused.body)).toMatch(/^attention/);
    }
    expect((await mq.get('/api/v1/queues/strict', mq.adminKey)).body.attention).toEqual({ ...DEFAULTS, backlog_growth: 5 });
  });
});
