import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { topology } from '../helpers/fixtures.js';

// One publish statement at a time (a pool of 4), and one publish may wait for it.
let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_DB_POOL_SIZE: '4', MINIQUEUE_GROUP_COMMIT_MAX_WAITING: '1' } });
  await topology(mq, 'bound', [{ name: 'bound-q' }]);
});
afterAll(() => mq.stop());

const publish = (payload: string) => mq.post('/api/v1/topics/bound/messages', { payload }, mq.adminKey);

describe('group commit under a database slower than its requests', () => {
  it('answers what would wait beyond the bound 503 overloaded with Retry-After, and stores the rest', async () => {
    // A session of its own holds the message table, so the first publish's statement waits on it.
    const blocker = new pg.Client({ connectionString: mq.databaseUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE message IN EXCLUSIVE MODE');
      const first = publish('first');
      await eventually(async () => {
        const { rows } = await blocker.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
        return rows[0].n > 0;
      }, 'the first publish waiting on the lock');
      const second = publish('second');
      // The second is on the waiting list (the one slot is taken): the third finds it full.
      await new Promise((resolve) => setImmediate(resolve));
      const third = await publish('third');
      expect(third.status).toBe(503);
      expect(third.body).toMatchObject({ status: 503, code: 'overloaded' });
      expect(third.headers['retry-after']).toBe('1');
      await blocker.query('COMMIT');
      expect((await first).status).toBe(201);
      expect((await second).status).toBe(201);
    } finally {
      await blocker.end();
    }
    const { rows } = await mq.pool.query(`SELECT payload FROM message WHERE queue_name = 'bound-q' ORDER BY payload`);
    expect(rows.map((row) => row.payload)).toEqual(['first', 'second']);
  });
});
