import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { pgCode } from '../../src/db/errors.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';

/**
 * A server at its connection limit is reachable: it refuses one more connection, while the
 * connections an instance's pool holds serve as before. Health must say so the same way whether
 * DATABASE_URL names one host or several (a multi-host URL's connections go through the host
 * locator, which asks each host on a connection of its own).
 */
const MAX_CONNECTIONS = 12;
const POOL_SIZE = 3;
const TOPIC = 'full.events';
/** Past the health check's reuse of an answer (a second): each probe below asks anew. */
const NEW_CHECK_MS = 1_100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A PostgreSQL server of its own, restarted once so that a small max_connections takes effect. */
async function smallDatabase(dir: string): Promise<EmbeddedDatabase> {
  const port = await freePort();
  const first = await startEmbeddedDatabase(dir, undefined, port);
  const client = new pg.Client({ connectionString: first.url });
  await client.connect();
  await client.query(`ALTER SYSTEM SET max_connections = ${MAX_CONNECTIONS}`);
  await client.end();
  await first.stop();
  return startEmbeddedDatabase(dir, undefined, port);
}

/** Opens connections until the server refuses one for being full (53300); returns them. */
async function fillServer(url: string): Promise<pg.Client[]> {
  const held: pg.Client[] = [];
  for (;;) {
    const client = new pg.Client({ connectionString: url, application_name: 'filler' });
    client.on('error', () => undefined);
    try {
      await client.connect();
      held.push(client);
    } catch (error) {
      if (pgCode(error) !== '53300') throw error;
      return held;
    }
    if (held.length > MAX_CONNECTIONS) throw new Error('the server took more connections than max_connections');
  }
}

describe(`health at the server's connection limit (max_connections=${MAX_CONNECTIONS})`, () => {
  let dir: string;
  let database: EmbeddedDatabase;
  let deadPort: number;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-full-'));
    database = await smallDatabase(dir);
    await migrate(database.url);
    deadPort = await freePort();
  });
  afterAll(async () => {
    await database?.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  const urlOf = (kind: 'one host' | 'several hosts') => {
    if (kind === 'one host') return database.url;
    // A host that is not there first, as after a failover: the locator must ask both.
    const url = new URL(database.url);
    return `postgresql://${url.username}:${url.password}@127.0.0.1:${deadPort},${url.host}/postgres?target_session_attrs=read-write`;
  };

  it.each(['one host', 'several hosts'] as const)(
    'with %s in DATABASE_URL: UP while publishes succeed, and while every pooled connection is busy',
    async (kind) => {
      let mq: TestBroker | undefined;
      let filler: pg.Client[] = [];
      try {
        mq = await startTestBroker({
          databaseUrl: urlOf(kind),
          env: { MINIQUEUE_DB_POOL_SIZE: String(POOL_SIZE), MINIQUEUE_DASHBOARD_DB_POOL_SIZE: '1', MINIQUEUE_RATE_LIMIT_ENABLED: 'false' },
        });
        const broker = mq;
        await broker.post('/api/v1/topics', { name: TOPIC }, broker.adminKey);
        // The pool opens its connections before the server fills up, as a running instance has.
        const warm = await Promise.all(Array.from({ length: POOL_SIZE }, () => broker.pool.connect()));
        for (const client of warm) client.release();
        filler = await fillServer(database.url);

        for (let i = 0; i < 3; i += 1) {
          await sleep(NEW_CHECK_MS);
          expect((await broker.post(`/api/v1/topics/${TOPIC}/messages`, { payload: `at the limit ${i}` }, broker.adminKey)).status).toBe(201);
          const health = await broker.get('/actuator/health');
          expect([health.status, health.body]).toEqual([200, { status: 'UP' }]);
        }

        // Every pooled connection busy too: the server still answers (it refuses for being full).
        const busy = await Promise.all(Array.from({ length: POOL_SIZE }, () => broker.pool.connect()));
        try {
          await sleep(NEW_CHECK_MS);
          const health = await broker.get('/actuator/health');
          expect([health.status, health.body]).toEqual([200, { status: 'UP' }]);
        } finally {
          for (const client of busy) client.release();
        }
        expect((await broker.post(`/api/v1/topics/${TOPIC}/messages`, { payload: 'after' }, broker.adminKey)).status).toBe(201);
      } finally {
        await Promise.all(filler.map((client) => client.end().catch(() => undefined)));
        await mq?.stop();
      }
    },
  );
});
