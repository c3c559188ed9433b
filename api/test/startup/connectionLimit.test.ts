import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { startRuntime } from '../../src/runtime.js';
import '../helpers/provided.js';
import { inject } from 'vitest';

/**
 * An instance that starts while PostgreSQL takes no more connections (here: its role's connection
 * limit, so that the other test files sharing the server are unaffected) keeps trying, with
 * backoff, for MINIQUEUE_DB_STARTUP_RETRY_SECONDS, and starts once a connection frees; past that
 * time it gives up with PostgreSQL's refusal.
 */

const LIMIT = 2;
const name = `mq_limited_${randomBytes(5).toString('hex')}`;
const password = randomBytes(12).toString('hex');
let superuser: pg.Client;
let databaseUrl: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { info: () => undefined, error: () => undefined };

beforeAll(async () => {
  superuser = new pg.Client({ connectionString: inject('databaseUrl') });
  await superuser.connect();
  await superuser.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password}' CONNECTION LIMIT ${LIMIT}`);
  await superuser.query(`CREATE DATABASE ${name} OWNER ${name}`);
  const url = new URL(inject('databaseUrl'));
  url.username = name;
  url.password = password;
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
});
afterAll(async () => {
  await superuser.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await superuser.query(`DROP ROLE IF EXISTS ${name}`);
  await superuser.end();
});

/** Every connection the role may have, held until released. */
async function holdEveryConnection(): Promise<() => Promise<void>> {
  const held = await Promise.all(
    Array.from({ length: LIMIT }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  return async () => void (await Promise.all(held.map((client) => client.end())));
}

const configWith = (retrySeconds: string) =>
  loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    MINIQUEUE_DB_POOL_SIZE: '2',
    MINIQUEUE_BOOTSTRAP_ADMIN_KEY: newApiKey().key,
    MINIQUEUE_DB_STARTUP_RETRY_SECONDS: retrySeconds,
  });

describe('starting while the database takes no more connections', () => {
  it('keeps trying with backoff and starts once connections free', async () => {
    const release = await holdEveryConnection();
    const started = startRuntime(configWith('30'), quiet);
    const outcome = started.then(
      () => 'started',
      (error: unknown) => `failed: ${String(error)}`,
    );
    await sleep(2_000);
    await release();
    expect(await outcome).toBe('started');
    await (await started).stop();
  }, 40_000);

  it('gives up, with the refusal, once the retry time has passed', async () => {
    const release = await holdEveryConnection();
    try {
      const began = Date.now();
      const error = await startRuntime(configWith('1.5'), quiet).then(
        (runtime) => runtime.stop().then(() => new Error('it started')),
        (failure: unknown) => failure,
      );
      expect(String(error)).toMatch(/too many connections/);
      expect(Date.now() - began).toBeGreaterThanOrEqual(1_500);
      expect(Date.now() - began).toBeLessThan(15_000);
    } finally {
      await release();
    }
  }, 40_000);
});
