import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { createPool, withTransaction, type Pool } from '../../src/db/pool.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { migrate } from '../../src/db/migrate.js';
import { advisoryLockTake } from '../../src/db/queries/advisoryLock.js';
import { ALL_MESSAGES } from '../helpers/allMessages.js';
import { createTestDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { terminateBackends } from './support/backends.js';
import { spawnBroker, type BrokerProcess } from './support/brokerProcess.js';
import { errorLeaks, fetchClient, type FetchClient } from './support/fetchClient.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let databaseUrl: string;
let pool: Pool;
let admin: pg.Client;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  pool = createPool(databaseUrl, 4);
  admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await pool?.end();
  await admin?.end();
});

/** The backend of the transaction `work` runs in, and its outcome once the backend is terminated. */
async function terminatedDuring(work: (tx: pg.PoolClient, started: () => void) => Promise<unknown>): Promise<unknown> {
  let pid = 0;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const outcome = withTransaction(pool, async (tx) => {
    pid = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    return work(tx, markStarted);
  }).then(
    () => new Error('the transaction committed'),
    (error: unknown) => error,
  );
  await started;
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  return outcome;
}

describe('a transaction whose connection dies', () => {
  it('fails as "database unavailable" when the backend is terminated during a statement; the process lives on', async () => {
    const error = await terminatedDuring(async (tx, started) => {
      const sleeping = tx.query('SELECT pg_sleep(30)');
      started();
      await sleeping;
    });
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    // The pool dropped the dead connection and hands out working ones.
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });

  it('fails the same way when the backend is terminated between two statements', async () => {
    const error = await terminatedDuring(async (tx, started) => {
      started();
      await sleep(300);
      await tx.query('SELECT 1');
    });
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    await eventually(async () => (await pool.query('SELECT 1 AS one')).rows[0].one === 1, 'a working pool');
  });

  it('keeps serving while every pooled backend is terminated again and again', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        await sleep(i * 10);
        return withTransaction(pool, async (tx) => {
          await tx.query('SELECT pg_sleep(0.02)');
          await tx.query('SELECT 1');
        }).then(
          () => 'committed',
          (error: unknown) => (isDatabaseUnavailable(error) ? 'unavailable' : String(error)),
        );
      }).concat(
        (async () => {
          for (let round = 0; round < 8; round += 1) {
            await terminateBackends(admin, 'miniqueue');
            await sleep(50);
          }
          return 'killer';
        })(),
      ),
    );
    expect(new Set(outcomes.filter((outcome) => outcome !== 'killer'))).toEqual(new Set(['committed', 'unavailable']));
    expect((await pool.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  });
});

describe('migrations whose connection dies', () => {
  it('reject instead of ending the process', async () => {
    // Another instance holds the migration lock, so migrate() waits in pg_advisory_lock.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await advisoryLockTake(holder, 'migrations');
      const migrating = migrate(databaseUrl).then(
        () => new Error('migrated'),
        (error: unknown) => error,
      );
      await eventually(async () => (await terminateBackends(admin, 'miniqueue-migrate')) > 0, 'the migration connection');
      expect(isDatabaseUnavailable(await migrating)).toBe(true);
    } finally {
      await holder.end();
    }
  });
});

describe('a broker under keyed publishes whose database backends are terminated again and again', () => {
  const TOPIC = 'loss.events';
  const QUEUE = 'loss-queue';
  const WORKERS = 8;
  const KILLING_MS = 3_000;
  // Transactions are short (and group-committed): look for them often, and end the rest now and then.
  const KILL_EVERY_MS = 10;
  const KILL_ALL_EVERY = 20;
  const adminKey = newApiKey().key;
  let broker: BrokerProcess | undefined;

  afterAll(async () => {
    await broker?.kill();
  });

  const BATCH_SIZE = 4;

  /**
   * Publishes under its own keys, retrying a 503 with the same keys, until told to stop: single
   * publishes and, every other time, a batch whose messages each carry a key (stored in one
   * transaction, all or nothing).
   */
  async function publisher(
    api: FetchClient,
    worker: number,
    state: { stop: boolean; answers: Map<number, number>; bad: string[]; published: Map<string, string> },
  ) {
    for (let i = 0; !state.stop; i += 1) {
      const batch = i % 2 === 1;
      const keys = batch ? Array.from({ length: BATCH_SIZE }, (_, k) => `w${worker}-${i}-${k}`) : [`w${worker}-${i}`];
      for (;;) {
        const response = batch
          ? await api.request('POST', `/api/v1/topics/${TOPIC}/messages/batch`, {
              key: adminKey,
              body: { messages: keys.map((key) => ({ payload: key, idempotency_key: key })) },
            })
          : await api.request('POST', `/api/v1/topics/${TOPIC}/messages`, {
              key: adminKey,
              headers: { 'idempotency-key': keys[0] },
              body: { payload: keys[0] },
            });
        state.answers.set(response.status, (state.answers.get(response.status) ?? 0) + 1);
        // 200: a retry of a single publish whose first answer was lost after its commit.
        if (response.status === 201 || (!batch && response.status === 200 && response.body.duplicate)) {
          const results: { message_ids: string[] }[] = batch ? response.body.results : [response.body];
          results.forEach((result, k) => state.published.set(keys[k], result.message_ids[0]));
          break;
        }
        if (response.status !== 503) state.bad.push(`publish ${keys[0]} answered ${response.status}`);
        else {
          if (response.headers.get('retry-after') !== '1') state.bad.push(`503 without Retry-After: ${response.headers.get('retry-after')}`);
          state.bad.push(...errorLeaks(response.body));
        }
        if (response.status !== 503 || state.stop) break;
        await sleep(20);
      }
    }
  }

  it('stays up, answers 503 with Retry-After meanwhile, stores every key once, and recovers by itself', async () => {
    const databaseUrl = await createTestDatabase();
    broker = await spawnBroker({ DATABASE_URL: databaseUrl, MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey });
    const api = fetchClient(broker.url);
    expect((await api.request('POST', '/api/v1/topics', { key: adminKey, body: { name: TOPIC } })).status).toBe(201);
    expect((await api.request('POST', '/api/v1/queues', { key: adminKey, body: { name: QUEUE, topic_name: TOPIC } })).status).toBe(201);

    const state = { stop: false, answers: new Map<number, number>(), bad: [] as string[], published: new Map<string, string>() };
    const workers = Array.from({ length: WORKERS }, (_, w) => publisher(api, w, state));
    await sleep(500);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    let terminated = 0;
    const killingUntil = Date.now() + KILLING_MS;
    for (let round = 0; Date.now() < killingUntil && broker.child.exitCode === null; round += 1) {
      // Pooled backends mid-transaction; every so often also LISTEN ('miniqueue-listen'), the
      // coordinator ('miniqueue-ws') and idle pooled ones.
      terminated += await terminateBackends(client, 'miniqueue%', round % KILL_ALL_EVERY !== 0);
      await sleep(KILL_EVERY_MS);
    }
    const killsEndedAt = Date.now();
    expect(broker.child.exitCode, `the broker exited:\n${broker.output()}`).toBeNull();

    // Recovery: a publish answered 201, and both dedicated connections back.
    let recoveredAfterMs = -1;
    let dedicatedBackAfterMs = -1;
    while (Date.now() - killsEndedAt < 10_000 && (recoveredAfterMs < 0 || dedicatedBackAfterMs < 0)) {
      if (recoveredAfterMs < 0) {
        const probe = await api.request('POST', `/api/v1/topics/${TOPIC}/messages`, { key: adminKey, body: { payload: 'probe' } });
        if (probe.status === 201) recoveredAfterMs = Date.now() - killsEndedAt;
      }
      if (dedicatedBackAfterMs < 0) {
        const { rows } = await client.query<{ n: number }>(
          `SELECT count(DISTINCT application_name)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND application_name IN ('miniqueue-listen', 'miniqueue-ws')`,
        );
        if (rows[0].n === 2) dedicatedBackAfterMs = Date.now() - killsEndedAt;
      }
      await sleep(20);
    }
    state.stop = true;
    await Promise.all(workers);

    console.log(
      `terminated ${terminated} backends in ${KILLING_MS} ms; answers ${JSON.stringify(Object.fromEntries(state.answers))}; ` +
        `publishing again ${recoveredAfterMs} ms and LISTEN + coordinator back ${dedicatedBackAfterMs} ms after the last kill`,
    );
    expect(broker.child.exitCode, `the broker exited:\n${broker.output()}`).toBeNull();
    expect(state.bad).toEqual([]);
    expect(state.answers.get(503) ?? 0).toBeGreaterThan(0);
    expect(state.answers.get(201) ?? 0).toBeGreaterThan(0);
    expect(recoveredAfterMs).toBeGreaterThanOrEqual(0);
    // Reconnects back off to 0.8 s at most; the margin is for a loaded CI machine.
    expect(recoveredAfterMs).toBeLessThan(1_500);
    expect(dedicatedBackAfterMs).toBeGreaterThanOrEqual(0);
    expect(dedicatedBackAfterMs).toBeLessThan(1_500);

    // Every key answered 201 is stored exactly once, under the id it was answered with.
    const { rows } = await client.query<{ id: string; payload: string }>(`SELECT id, payload FROM ${ALL_MESSAGES} WHERE topic_name = $1`, [TOPIC]);
    await client.end();
    const byPayload = new Map<string, string[]>();
    for (const row of rows) byPayload.set(row.payload, [...(byPayload.get(row.payload) ?? []), row.id]);
    for (const [key, id] of state.published) expect([key, byPayload.get(key)]).toEqual([key, [id]]);
  });
});
