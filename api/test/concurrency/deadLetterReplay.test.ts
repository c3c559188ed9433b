import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

const COUNT = 2_000;

/** Puts COUNT dead messages straight into the dead-letter table (as if each had been nacked). */
async function seedDead(mq: TestBroker): Promise<string[]> {
  const { rows } = await mq.pool.query<{ id: string }>(
    `INSERT INTO message_dead (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at, available_at,
                               dead_at, dead_reason, dead_detail)
     SELECT miniqueue_uuidv7(), nextval('message_seq'), 'race', 'race', 'dead ' || i, '{}', 0, now(), now() + i * interval '1 microsecond',
            now(), 'NACKED', 'seeded'
       FROM generate_series(1, $1) AS i
     RETURNING id`,
    [COUNT],
  );
  return rows.map((row) => row.id);
}

describe('bulk replays racing each other', () => {
  let a: TestBroker;
  let b: TestBroker;
  beforeAll(async () => {
    a = await startTestBroker();
    b = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
    await topology(a, 'race', [{ name: 'race' }]);
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('overlapping selections and filters on two instances replay every message exactly once', async () => {
    const ids = await seedDead(a);
    const chunks = (list: string[]) => Array.from({ length: Math.ceil(list.length / 500) }, (_, i) => list.slice(i * 500, i * 500 + 500));
    // Every id is named by two selection requests (one per instance); two filter replays run meanwhile.
    const shuffled = [...ids].sort(() => Math.random() - 0.5);
    const selections = [...chunks(ids), ...chunks(shuffled)].map((selection, i) =>
      (i % 2 === 0 ? a : b).post('/api/v1/dashboard/dlq/batch-replay', { ids: selection }, a.adminKey),
    );
    const filters = [a, b].map((mq) => mq.post('/api/v1/dashboard/dlq/replay', { queue: 'race' }, a.adminKey));
    const [selected, filtered] = await Promise.all([Promise.all(selections), Promise.all(filters)]);

    for (const response of [...selected, ...filtered]) expect(response.status, JSON.stringify(response.body)).toBe(200);
    const succeeded = selected.flatMap((response) => response.body.succeeded as string[]);
    expect(new Set(succeeded).size).toBe(succeeded.length);
    const byFilters = filtered.reduce((total, response) => total + (response.body.replayed as number), 0);
    expect(succeeded.length + byFilters).toBe(COUNT);
    // Each id a selection did not replay is reported, as no longer DEAD.
    for (const response of selected) {
      expect(response.body.succeeded.length + response.body.failed.length).toBe(500);
      for (const failure of response.body.failed) expect(failure.code).toBe('message_not_dead');
    }
    const live = await a.pool.query(`SELECT count(*)::int AS n, count(DISTINCT id)::int AS ids FROM message WHERE queue_name = 'race' AND status = 'PENDING'`);
    expect(live.rows[0]).toEqual({ n: COUNT, ids: COUNT });
    expect((await a.pool.query('SELECT count(*)::int AS n FROM message_dead')).rows[0].n).toBe(0);
  });

  it('concurrent deletes of the same selection delete each message once', async () => {
    const ids = await seedDead(a);
    const selection = ids.slice(0, 500);
    const results = await Promise.all([a, b, a, b].map((mq) => mq.post('/api/v1/dashboard/dlq/batch-delete', { ids: selection }, a.adminKey)));
    const deleted = results.flatMap((response) => response.body.succeeded as string[]);
    expect(deleted.sort()).toEqual([...selection].sort());
    for (const response of results) for (const failure of response.body.failed) expect(failure.code).toBe('message_not_found');
    const rest = await Promise.all([a, b].map((mq) => mq.post('/api/v1/dashboard/dlq/delete', { queue: 'race', reason: 'NACKED' }, a.adminKey)));
    expect(rest.reduce((total, response) => total + (response.body.deleted as number), 0)).toBe(COUNT - 500);
  });
});
