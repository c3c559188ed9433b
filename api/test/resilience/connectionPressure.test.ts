import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freePort, startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { errorLeaks } from './support/fetchClient.js';
import { fetchClient, type FetchClient } from './support/fetchClient.js';

const MAX_CONNECTIONS = 20;
const BROKERS = 3;
// Each broker wants its pool of 10 plus 2 dedicated connections: 36 in all, for 20 slots.
const POOL_SIZE = 10;
const CLIENTS_PER_BROKER = 10;
const LOAD_MS = 5_000;
const HEALTH_EVERY_MS = 100;
const TOPIC = 'pressure.events';
const QUEUE = 'pressure-queue';

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

const count = (counts: Map<number, number>, status: number) => counts.set(status, (counts.get(status) ?? 0) + 1);

describe(`${BROKERS} brokers with pools of ${POOL_SIZE} on a database with max_connections=${MAX_CONNECTIONS}`, () => {
  let dir: string;
  let database: EmbeddedDatabase;
  const brokers: TestBroker[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-pressure-'));
    database = await smallDatabase(dir);
    await migrate(database.url);
    const env = { MINIQUEUE_DB_POOL_SIZE: String(POOL_SIZE), MINIQUEUE_RATE_LIMIT_ENABLED: 'false' };
    const first = await startTestBroker({ databaseUrl: database.url, listen: true, env });
    brokers.push(first);
    for (let i = 1; i < BROKERS; i += 1) {
      brokers.push(await startTestBroker({ databaseUrl: database.url, adminKey: first.adminKey, listen: true, env }));
    }
  });
  afterAll(async () => {
    for (const broker of brokers) await broker.stop();
    await database?.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it('make requests wait for a connection instead of failing, and health stays UP throughout', async () => {
    const [first] = brokers;
    const admin = first.adminKey;
    expect((await first.post('/api/v1/topics', { name: TOPIC }, admin)).status).toBe(201);
    expect((await first.post('/api/v1/queues', { name: QUEUE, topic_name: TOPIC }, admin)).status).toBe(201);

    const requests = new Map<number, number>();
    const health = new Map<number, number>();
    const failures: string[] = [];
    let stop = false;
    const worker = async (api: FetchClient, id: number) => {
      for (let i = 0; !stop; i += 1) {
        try {
          const published = await api.request('POST', `/api/v1/topics/${TOPIC}/messages`, { key: admin, body: { payload: `c${id}-${i}` } });
          count(requests, published.status);
          const consumed = await api.request('POST', `/api/v1/queues/${QUEUE}/consume`, { key: admin, headers: { 'miniqueue-instance': `c${id}` } });
          count(requests, consumed.status);
          if (consumed.status !== 200) continue;
          const acked = await api.request('POST', `/api/v1/messages/${consumed.body.message_id}/ack`, {
            key: admin,
            headers: { 'miniqueue-instance': `c${id}` },
          });
          count(requests, acked.status);
        } catch (error) {
          failures.push(String(error));
        }
      }
    };
    const prober = async (api: FetchClient) => {
      while (!stop) {
        count(health, (await api.request('GET', '/actuator/health')).status);
        await sleep(HEALTH_EVERY_MS);
      }
    };
    const apis = brokers.map((broker) => fetchClient(broker.url));
    const running = [
      ...apis.flatMap((api, b) => Array.from({ length: CLIENTS_PER_BROKER }, (_, c) => worker(api, b * CLIENTS_PER_BROKER + c))),
      ...apis.map((api) => prober(api)),
    ];
    await sleep(LOAD_MS);
    stop = true;
    await Promise.all(running);

    const total = [...requests.values()].reduce((sum, n) => sum + n, 0);
    const unavailable = requests.get(503) ?? 0;
    console.log(
      `requests ${JSON.stringify(Object.fromEntries(requests))} (${((100 * unavailable) / total).toFixed(1)} % 503); ` +
        `health ${JSON.stringify(Object.fromEntries(health))}`,
    );
    expect(failures).toEqual([]);
    expect(total).toBeGreaterThan(100);
    expect(unavailable).toBe(0);
    expect([...health.keys()]).toEqual([200]);
  });
});

describe('a request that finds every pooled connection busy', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker({ env: { MINIQUEUE_DB_POOL_SIZE: '2', MINIQUEUE_DB_CONNECTION_WAIT_SECONDS: '0.5' } });
  });
  afterAll(() => mq?.stop());

  it('waits for one to come back, and gets a 503 saying so with Retry-After when none does in time', async () => {
    // The pool's connect timeout is the 0.5 s wait, which opening a connection on a busy machine
    // can exceed: try again until both are held.
    const hold = async () => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await mq.pool.connect();
        } catch (error) {
          if (attempt === 10) throw error;
        }
      }
    };
    const held = [await hold(), await hold()];
    const started = Date.now();
    const refused = await mq.get('/api/v1/topics', mq.adminKey);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(refused.status).toBe(503);
    expect(refused.body.message).toBe('No database connection became free within 0.5 s; try again shortly');
    expect(refused.headers['retry-after']).toBe('1');
    expect(errorLeaks(refused.body)).toEqual([]);

    // Released while the request waits: it is served.
    const waiting = mq.get('/api/v1/topics', mq.adminKey);
    await sleep(100);
    held[0].release();
    expect((await waiting).status).toBe(200);
    held[1].release();
  });
});
