import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/pool.js';
import { ratesFlush } from '../../src/db/queries/rates.js';
import { statsByQueue, statsOverview } from '../../src/db/queries/stats.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

/**
 * The dashboard's counts, the Prometheus gauges and the depth sample must cost the same with a
 * backlog of any size: none of them may read the pending messages one by one (the oldest pending
 * age is the head of the claim index, one message per queue). Each statement runs
 * under EXPLAIN ANALYZE here, and the rows its plan read from the live table are added up.
 */
const PENDING = 6_000;
let mq: TestBroker;
let client: pg.Client;

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}
const rowsReadFrom = (node: PlanNode, table: string): number =>
  (node['Relation Name'] === table ? node['Actual Rows'] * node['Actual Loops'] : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + rowsReadFrom(child, table), 0);

/** A Queryable that runs each statement under EXPLAIN (ANALYZE) first and notes the live-table rows it read. */
function measuring(reads: number[]): Queryable {
  const query = async (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    const params = typeof config === 'string' ? values : (config.values ?? values);
    await client.query('BEGIN');
    const plan = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, params);
    await client.query('ROLLBACK');
    reads.push(rowsReadFrom(plan.rows[0]['QUERY PLAN'][0].Plan, 'message'));
    return client.query(text, params);
  };
  return { query } as unknown as Queryable;
}

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
  await topology(mq, 'backlog', [{ name: 'deep' }, { name: 'deep-too' }]);
  await topology(mq, 'other', [{ name: 'shallow' }]);
  for (let i = 0; i < PENDING / 500; i++) {
    const messages = Array.from({ length: 500 }, (_, j) => ({ payload: `m${i}-${j}` }));
    expect((await mq.post('/api/v1/topics/backlog/messages/batch', { messages }, mq.adminKey)).status).toBe(201);
  }
  await mq.post('/api/v1/topics/other/messages', { payload: 'one' }, mq.adminKey);
  client = new pg.Client({ connectionString: mq.databaseUrl });
  await client.connect();
}, 120_000);
afterAll(async () => {
  await client?.end();
  await mq?.stop();
});

describe(`with ${PENDING.toLocaleString('en-US')} pending in each of two queues`, () => {
  it('the overview counts them without reading them', async () => {
    const reads: number[] = [];
    const overview = await statsOverview(measuring(reads));
    expect(overview).toMatchObject({ pending: 2 * PENDING + 1, unacked: 0, dead: 0, queues: 3 });
    expect(reads).toEqual([0]);
  });

  it('the per-queue counts (dashboard queues, Prometheus gauges) read one message per queue at most', async () => {
    const reads: number[] = [];
    const rows = await statsByQueue(measuring(reads));
    expect(rows.map((row) => [row.queue, row.pending])).toEqual([
      ['deep', PENDING],
      ['deep-too', PENDING],
      ['shallow', 1],
    ]);
    // The oldest pending message's age: the head of the claim index, one row per queue.
    expect(reads[0]).toBeLessThanOrEqual(3);
  });

  it('the depth sample of the rate recorder reads one message per queue at most (the oldest pending)', async () => {
    const reads: number[] = [];
    const bucket = Math.floor(Date.now() / 5_000) * 5_000 - 600_000;
    await ratesFlush(measuring(reads), { queues: [], topics: [], pollers: [] }, bucket);
    expect(reads[0]).toBeLessThanOrEqual(3);
    const { rows } = await mq.pool.query('SELECT queue_name, depth FROM queue_rate WHERE bucket = $1 ORDER BY 1', [new Date(bucket)]);
    expect(rows).toEqual([
      { queue_name: 'deep', depth: PENDING },
      { queue_name: 'deep-too', depth: PENDING },
      { queue_name: 'shallow', depth: 1 },
    ]);
  });
});
