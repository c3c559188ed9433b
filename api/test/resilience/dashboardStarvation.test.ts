import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { createPool } from '../../src/db/pool.js';
import { seedRateHistory } from '../../bench/rateHistory.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

/**
 * A day of rate history for 50 queues (864,000 rows), and ten viewers asking for all of it at
 * once: the dashboard's reads must never take the connections publish, claim and ack need.
 */
let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
  await seedRateHistory(mq.pool);
  await topology(mq, 'live', [{ name: 'work' }]);
}, 120_000);
afterAll(() => mq?.stop());

describe('ten long-window rate reads at once', () => {
  it('leave publishes answered 201 within a fraction of a second', async () => {
    const viewer = await mq.clientKey('viewer', ['view']);
    // The yardstick: the slowest of 20 publishes on this machine just before, with nothing else running.
    let alone = 0;
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      expect((await mq.post('/api/v1/topics/live/messages', { payload: `alone ${i}` }, mq.adminKey)).status).toBe(201);
      alone = Math.max(alone, performance.now() - started);
    }
    const reads = Array.from({ length: 10 }, () => mq.get('/api/v1/dashboard/rates?window_seconds=86400', viewer));
    let readsDone = false;
    const allReads = Promise.all(reads).finally(() => (readsDone = true));
    const publishes: { status: number; ms: number }[] = [];
    // Publishes, one after the other, for as long as the reads run (at least 20 of them).
    while (!readsDone || publishes.length < 20) {
      const started = performance.now();
      const response = await mq.post('/api/v1/topics/live/messages', { payload: `p${publishes.length}` }, mq.adminKey);
      publishes.push({ status: response.status, ms: performance.now() - started });
    }
    const answered = await allReads;
    const slowest = Math.max(...publishes.map((p) => p.ms));
    console.log(
      `${publishes.length} publishes, slowest ${slowest.toFixed(0)} ms (alone ${alone.toFixed(0)} ms); reads ${answered.map((r) => r.status).join(',')}`,
    );
    expect(publishes.filter((p) => p.status !== 201)).toEqual([]);
    // A publish starved of connections would wait for a read to end (seconds); one that is not waits
    // for its own commit, slowed only by what the reads take of the CPU.
    expect(slowest).toBeLessThan(1_000 + 3 * alone);
    // And the reads themselves are answered: in full, or 503 when the dashboard's share stayed busy.
    for (const read of answered) expect([200, 503]).toContain(read.status);
    expect(answered.some((read) => read.status === 200)).toBe(true);
  }, 120_000);
});

describe('the dashboard share of the database', () => {
  it('has a shorter statement timeout than the broker pool, and every statement has one', async () => {
    const timeoutOf = async (pool: typeof mq.pool) => (await pool.query('SHOW statement_timeout')).rows[0].statement_timeout;
    expect(await timeoutOf(mq.pool)).toBe('30s');
    expect(await timeoutOf(mq.broker.context.dashboardPool)).toBe('5s');
    const short = createPool(mq.databaseUrl, 1, 5_000, 1_000, { statementTimeoutMs: 200 });
    try {
      const error = await short.query('SELECT pg_sleep(2)').catch((e: unknown) => e);
      expect((error as { code?: string }).code).toBe('57014');
      // Answered 503 (try again), like any other sign of a busy database.
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await short.end();
    }
  });

  it('makes dashboard reads wait for their own connections while publishes go on', async () => {
    const share = mq.broker.context.dashboardPool;
    const held = Array.from({ length: mq.config.dashboardDb.poolSize }, () => share.query('SELECT pg_sleep(1.5)'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const overview = mq.get('/api/v1/dashboard/overview', mq.adminKey).then((response) => ({ response, ms: performance.now() - started }));
    for (let i = 0; i < 5; i++) {
      const publishStarted = performance.now();
      expect((await mq.post('/api/v1/topics/live/messages', { payload: `q${i}` }, mq.adminKey)).status).toBe(201);
      expect(performance.now() - publishStarted).toBeLessThan(500);
    }
    const { response, ms } = await overview;
    expect(response.status).toBe(200);
    expect(ms).toBeGreaterThan(1_000);
    await Promise.all(held);
  });
});
