import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveTableVacuumJob } from '../../src/jobs/liveTableVacuum.js';
import { eventually } from '../helpers/eventually.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

const deadRows = async () =>
  (await mq.pool.query(`SELECT n_dead_tup::int AS n FROM pg_stat_user_tables WHERE relid = 'message'::regclass`)).rows[0].n as number;

describe('the live table is vacuumed when acks leave it full of dead rows', () => {
  it('does nothing below the threshold, and vacuums above it', async () => {
    await mq.pool.query(
      `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
       SELECT miniqueue_uuidv7(), 'churn', 't', 'x', '{}', 'PENDING', now(), now() FROM generate_series(1, 3000)`,
    );
    await mq.pool.query(`DELETE FROM message WHERE queue_name = 'churn'`);
    // A backend sends its counts at most once a second, and an idle one only after 10 s.
    await eventually(async () => (await deadRows()) >= 3000, 'the statistics to count the dead rows', 20_000);
    expect(await liveTableVacuumJob(mq.pool, 10_000).runOnce()).toEqual({ dead: 3000, vacuumed: false });
    expect(await liveTableVacuumJob(mq.pool, 1_000).runOnce()).toEqual({ dead: 3000, vacuumed: true });
    expect(await deadRows()).toBe(0);
  });

  it('the migration asks autovacuum to come early and without pauses', async () => {
    const { rows } = await mq.pool.query(`SELECT reloptions FROM pg_class WHERE oid = 'message'::regclass`);
    expect(rows[0].reloptions).toEqual(expect.arrayContaining(['autovacuum_vacuum_scale_factor=0', 'autovacuum_vacuum_threshold=10000']));
  });
});
