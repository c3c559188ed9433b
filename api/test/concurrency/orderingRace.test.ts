import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagePublish } from '../../src/db/queries/messagePublish.js';
import { orderingGroupsForgetIdle } from '../../src/db/queries/orderingGroup.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { topology } from '../helpers/fixtures.js';

let mq: TestBroker;
let worker: string;

beforeAll(async () => {
  mq = await startTestBroker();
  worker = await mq.clientKey('race-worker', ['consume:*']);
});
afterAll(() => mq.stop());

const consume = (queue: string) => mq.post(`/api/v1/queues/${queue}/consume`, undefined, worker);
/** Backends of this database waiting for a lock: the statement we expect to be blocked is. */
const waitingForLock = async () => {
  const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
  return rows[0].n as number;
};

describe('ordering keys under races', () => {
  it('an ack of the head that waited for a publish of its key still lets the published message through', async () => {
    await topology(mq, 'race', [{ name: 'race-q' }]);
    expect((await mq.post('/api/v1/topics/race/messages', { payload: 'head', ordering_key: 'k' }, mq.adminKey)).status).toBe(201);
    const head = await consume('race-q');
    expect(head.body.payload).toBe('head');

    // A publish of k, not yet committed, holds k's group row.
    const publisher = new pg.Client({ connectionString: mq.databaseUrl });
    await publisher.connect();
    try {
      await publisher.query('BEGIN');
      const [published] = await messagePublish(publisher, [{ topic: 'race', payload: 'next', headers: {}, delaySeconds: 0, orderingKey: 'k' }], 24);
      expect(published.stored).toBe(true);
      // The ack of the head waits for that lock; its snapshot is older than the publish.
      const acked = mq.post(`/api/v1/messages/${head.body.message_id}/ack`, undefined, worker);
      await eventually(async () => (await waitingForLock()) > 0, 'the ack to wait for the group lock');
      await publisher.query('COMMIT');
      expect((await acked).status).toBe(200);
    } finally {
      await publisher.end();
    }
    const next = await consume('race-q');
    expect(next.status).toBe(200);
    expect(next.body.payload).toBe('next');
    const { rows } = await mq.pool.query(`SELECT count(*)::int AS n FROM ordering_group WHERE stalled`);
    expect(rows[0].n).toBe(0);
  });

  it('a publish that waited for the cleanup forgetting its idle group starts the group afresh, at its head', async () => {
    await topology(mq, 'idle', [{ name: 'idle-q' }]);
    expect((await mq.post('/api/v1/topics/idle/messages', { payload: 'first', ordering_key: 'k' }, mq.adminKey)).status).toBe(201);
    const first = await consume('idle-q');
    expect((await mq.post(`/api/v1/messages/${first.body.message_id}/ack`, undefined, worker)).status).toBe(200);

    // The cleanup has deleted k's idle group and not yet committed.
    const cleaner = new pg.Client({ connectionString: mq.databaseUrl });
    await cleaner.connect();
    try {
      await cleaner.query('BEGIN');
      expect(await orderingGroupsForgetIdle(cleaner, 100)).toBeGreaterThanOrEqual(1);
      const published = mq.post('/api/v1/topics/idle/messages', { payload: 'second', ordering_key: 'k' }, mq.adminKey);
      await eventually(async () => (await waitingForLock()) > 0, 'the publish to wait for the group lock');
      await cleaner.query('COMMIT');
      expect((await published).status).toBe(201);
    } finally {
      await cleaner.end();
    }
    expect((await mq.post('/api/v1/topics/idle/messages', { payload: 'third', ordering_key: 'k' }, mq.adminKey)).status).toBe(201);
    const second = await consume('idle-q');
    expect(second.body.payload).toBe('second');
    expect((await consume('idle-q')).status).toBe(204);
    expect((await mq.post(`/api/v1/messages/${second.body.message_id}/ack`, undefined, worker)).status).toBe(200);
    expect((await consume('idle-q')).body.payload).toBe('third');
  });
});
