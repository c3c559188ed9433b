import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

describe('two instances writing rates into the same buckets', () => {
  let a: TestBroker;
  let b: TestBroker;
  beforeAll(async () => {
    a = await startTestBroker();
    b = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
    await topology(a, 'both', [{ name: 'both-1' }, { name: 'both-2' }, { name: 'both-3' }]);
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('add up their counts, write at the same moments without deadlock, and sample the depth once', async () => {
    const rounds = 5;
    let published = 0;
    for (let round = 0; round < rounds; round++) {
      // Both instances publish and claim, then both write at once, many times over.
      await Promise.all(
        [a, b].flatMap((mq) => Array.from({ length: 10 }, (_, i) => mq.post('/api/v1/topics/both/messages', { payload: `r${round}-${i}` }, a.adminKey))),
      );
      published += 20;
      await Promise.all([a, b].map((mq) => mq.post('/api/v1/queues/both-2/receive', { max_messages: 3 }, a.adminKey)));
      await Promise.all([a, b, a, b].map((mq) => mq.broker.core.rateRecorder.runOnce()));
    }
    await Promise.all([a, b].map((mq) => mq.broker.core.rateRecorder.runOnce()));
    const series = (await a.get('/api/v1/dashboard/rates?window_seconds=300', a.adminKey)).body;
    const total = (field: string) => series.buckets.reduce((sum: number, bucket: Record<string, number>) => sum + bucket[field], 0);
    expect([total('published'), total('enqueued'), total('delivered')]).toEqual([published, published * 3, rounds * 6]);
    const perQueue = await a.pool.query(`SELECT queue_name, sum(enqueued)::int AS n FROM queue_rate GROUP BY 1 ORDER BY 1`);
    expect(perQueue.rows).toEqual([1, 2, 3].map((i) => ({ queue_name: `both-${i}`, n: published })));
    // Each instance's consumer identity is seen once per queue, whatever the number of writes.
    const pollers = await a.pool.query(`SELECT count(*)::int AS n FROM queue_poller WHERE queue_name = 'both-2'`);
    expect(pollers.rows[0].n).toBe(1);
    // One depth per queue and sampled bucket: the first writer's.
    const samples = await a.pool.query('SELECT count(*)::int AS n, count(DISTINCT bucket)::int AS buckets FROM rate_sample');
    expect(samples.rows[0].n).toBe(samples.rows[0].buckets);
  });
});
