import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

/** True once some session waits for a SHARE ROW EXCLUSIVE lock on `table`: the purge or delete, stuck behind `other`. */
async function tableLockAwaited(table: string): Promise<boolean> {
  const { rows } = await mq.pool.query(
    `SELECT 1 FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
      WHERE c.relname = $1 AND l.mode = 'ShareRowExclusiveLock' AND NOT l.granted`,
    [table],
  );
  return rows.length > 0;
}

/**
 * The lease sweep promotes stalled ordering-key heads in one statement that takes ordering_group
 * before message; a purge or delete locks message first and ordering_group last. This plays that
 * statement by hand, between the two lock steps of the purge: without the purge letting go of its
 * table locks, PostgreSQL finds the deadlock after deadlock_timeout and aborts one side (a 500 for
 * the admin, or an error in the job).
 */
async function underCrossedLocks(request: () => Promise<{ status: number; body: unknown }>) {
  const other: pg.PoolClient = await mq.pool.connect();
  try {
    await other.query('BEGIN');
    await other.query('LOCK TABLE ordering_group IN ROW EXCLUSIVE MODE');
    const answer = request();
    await eventually(() => tableLockAwaited('ordering_group'), 'the request waiting for ordering_group', 5_000);
    // Waits while the request holds message; must be granted, never chosen as a deadlock victim.
    await other.query('LOCK TABLE message IN ROW EXCLUSIVE MODE');
    await other.query('COMMIT');
    return await answer;
  } catch (error) {
    await other.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    other.release();
  }
}

describe('purging or deleting a queue while another statement locks the message tables in the other order', () => {
  it('purges every message once the other statement is done, with no deadlock on either side', async () => {
    await topology(mq, 'lock-order-purge', [{ name: 'lock-order-purged' }]);
    for (const payload of ['a', 'b', 'c']) await publishOne(mq, 'lock-order-purge', payload);

    const answer = await underCrossedLocks(() => mq.post('/api/v1/queues/lock-order-purged/purge', {}, mq.adminKey));

    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ queue: 'lock-order-purged', purged: 3 });
  });

  it('deletes the queue once the other statement is done', async () => {
    await topology(mq, 'lock-order-delete', [{ name: 'lock-order-deleted' }]);
    await publishOne(mq, 'lock-order-delete', 'a');

    const answer = await underCrossedLocks(() => mq.del('/api/v1/queues/lock-order-deleted', mq.adminKey));

    expect(answer.status).toBe(204);
    expect((await mq.get('/api/v1/queues/lock-order-deleted', mq.adminKey)).status).toBe(404);
  });
});
