import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { openStream, publishFrame } from '../stream/support.js';

/**
 * A server whose commits wait for a synchronous standby that is not there
 * (synchronous_standby_names names one that never connects): every commit waits for good, and
 * no statement_timeout ends that wait. The broker bounds it (MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS):
 * each write is answered 503 with Retry-After within the bound, health says DOWN, and nothing of
 * the broker stays stuck. A server of its own: the setting applies to the whole server.
 */
const COMMIT_TIMEOUT_MS = 1_000;
/** Time for the answer after the bound: the cancel, the error's way out, a loaded machine. */
const SLACK_MS = 3_000;
const TOPIC = 'stall.events';
const QUEUE = 'stall-queue';

/** `promise`, or a failure naming `what` once `ms` have passed without an answer. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('commits that wait for a synchronous standby that is gone', () => {
  let dir: string;
  let database: EmbeddedDatabase;
  let admin: pg.Client;
  let mq: TestBroker;
  const keyedPayload = 'keyed during the stall';

  const stallCommits = async (on: boolean) => {
    await admin.query(on ? "ALTER SYSTEM SET synchronous_standby_names = 'nonexistent_standby'" : 'ALTER SYSTEM RESET synchronous_standby_names');
    await admin.query('SELECT pg_reload_conf()');
  };
  const publish = (payload: string, headers: Record<string, string> = {}) =>
    mq.request('POST', `/api/v1/topics/${TOPIC}/messages`, { key: mq.adminKey, body: { payload }, headers });
  const timed = async <T>(what: string, request: () => Promise<T>): Promise<{ answer: T; ms: number }> => {
    const started = Date.now();
    const answer = await within(COMMIT_TIMEOUT_MS + SLACK_MS, what, request());
    return { answer, ms: Date.now() - started };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-commit-stall-'));
    database = await startEmbeddedDatabase(dir);
    await migrate(database.url);
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    mq = await startTestBroker({
      databaseUrl: database.url,
      listen: true,
      env: { MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS: String(COMMIT_TIMEOUT_MS / 1000), MINIQUEUE_DB_POOL_SIZE: '4', MINIQUEUE_RATE_LIMIT_ENABLED: 'false' },
    });
    expect((await mq.post('/api/v1/topics', { name: TOPIC }, mq.adminKey)).status).toBe(201);
    expect((await mq.post('/api/v1/queues', { name: QUEUE, topic_name: TOPIC }, mq.adminKey)).status).toBe(201);
  });
  afterAll(async () => {
    if (admin) await stallCommits(false).catch(() => undefined);
    await mq?.stop();
    await admin?.end();
    await database?.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('answers writes 503 database_unavailable with Retry-After within the bound, says DOWN, and frees every connection', async () => {
    expect((await publish('before the stall')).status).toBe(201);
    const claimed = await mq.post(`/api/v1/queues/${QUEUE}/consume`, {}, mq.adminKey, { 'miniqueue-instance': 'c1' });
    expect(claimed.status).toBe(200);
    const stream = await openStream(mq, { key: mq.adminKey });
    await stallCommits(true);
    try {
      // pg_reload_conf() only signals: a publish sent just after it may still commit at once.
      let refused = await timed('a publish', () => publish('during the stall'));
      await eventually(
        async () => (refused = await timed('a publish', () => publish('during the stall'))).answer.status !== 201,
        'a publish not stored at once',
      );
      expect(refused.answer.status).toBe(503);
      expect(refused.answer.body.code).toBe('database_unavailable');
      expect(refused.answer.headers['retry-after']).toBe('1');
      expect(refused.ms).toBeLessThan(COMMIT_TIMEOUT_MS + SLACK_MS);

      // Single publishes share one group commit: every one of them gets the 503.
      const together = await timed('publishes sharing a commit', () => Promise.all(Array.from({ length: 6 }, (_, i) => publish(`together ${i}`))));
      expect(together.answer.map((answer) => [answer.status, answer.body.code, answer.headers['retry-after']])).toEqual(
        Array.from({ length: 6 }, () => [503, 'database_unavailable', '1']),
      );

      const keyed = await timed('a keyed publish', () => publish(keyedPayload, { 'Idempotency-Key': 'stall-1' }));
      expect(keyed.answer.status).toBe(503);

      const acked = await timed('an ack', () => mq.post(`/api/v1/messages/${claimed.body.message_id}/ack`, {}, mq.adminKey, { 'miniqueue-instance': 'c1' }));
      expect([acked.answer.status, acked.answer.body.code, acked.answer.headers['retry-after']]).toEqual([503, 'database_unavailable', '1']);

      const health = await timed('health', () => mq.get('/actuator/health'));
      expect(health.answer.status).toBe(503);
      expect(health.answer.body.code).toBe('database_unavailable');
      expect(health.answer.headers['retry-after']).toBe('1');

      const scrape = await timed('a scrape', () => mq.get('/actuator/prometheus', mq.adminKey));
      expect(scrape.answer.body).toMatch(/^miniqueue_database_up 0$/m);

      stream.send(publishFrame(1, TOPIC, 'streamed during the stall'));
      const reject = await stream.next((frame) => frame.type === 'reject' && frame.seq === 1, COMMIT_TIMEOUT_MS + SLACK_MS);
      expect(reject).toMatchObject({ status: 503, code: 'database_unavailable', retry_after_seconds: 1 });

      // More writes than the pool has connections were answered: none of them is held for good,
      // and no commit of the broker's waits on the server longer than the bound.
      const publishesAfter = await timed('a publish after the pool was used up', () => publish('after'));
      expect(publishesAfter.answer.status).toBe(503);
      expect(publishesAfter.answer.body.message).not.toMatch(/connection became free/);
      const { rows } = await admin.query<{ pid: number; application_name: string; query: string }>(
        `SELECT pid, application_name, query FROM pg_stat_activity
          WHERE wait_event = 'SyncRep' AND application_name LIKE 'miniqueue%' AND now() - query_start > make_interval(secs => $1)`,
        [(COMMIT_TIMEOUT_MS + SLACK_MS) / 1000],
      );
      expect(rows).toEqual([]);
    } finally {
      await stream.close();
      await stallCommits(false);
    }
  });

  it('serves again once commits complete: UP, publishes stored, a keyed publish retried after its 503 stored once', async () => {
    await eventually(async () => (await publish('after the stall')).status === 201, 'publishing again', 15_000);
    // UP, once the background writers that failed meanwhile (the rates) have written again.
    await eventually(async () => (await mq.get('/actuator/health')).body.status === 'UP', 'health UP again', 15_000);

    const retried = await publish(keyedPayload, { 'Idempotency-Key': 'stall-1' });
    expect([200, 201]).toContain(retried.status);
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM message WHERE payload = $1', [keyedPayload]);
    expect(rows[0].n).toBe(1);

    // The group commit that the six shared may have committed locally: none of them was tried again
    // on its own (which would store it a second time).
    // A read commits nothing to wait for: it runs past the bound (statement_timeout bounds it).
    const read = await mq.pool.query<{ slept: boolean }>('SELECT true AS slept FROM pg_sleep($1)', [(1.5 * COMMIT_TIMEOUT_MS) / 1000]);
    expect(read.rows).toEqual([{ slept: true }]);

    const shared = await admin.query<{ payload: string; n: number }>(
      "SELECT payload, count(*)::int AS n FROM message WHERE payload LIKE 'together %' GROUP BY payload HAVING count(*) > 1",
    );
    expect(shared.rows).toEqual([]);
  });
});
