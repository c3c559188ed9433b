import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import WebSocket from 'ws';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import { createTestDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { activeHandles, databaseSessions, timerCounter } from '../helpers/resources.js';

const RESTARTS = 30;
const quiet = { info: () => undefined, error: () => undefined };

interface Snapshot {
  timers: number;
  handles: Record<string, number>;
  sessions: number;
}

/** One life of a broker that did some of everything: HTTP, a consumer and a monitor socket; then its stop. */
async function exercise(runtime: Runtime, adminKey: string, whileRunning: () => Promise<void> = async () => undefined): Promise<void> {
  const auth = { authorization: `Bearer ${adminKey}` };
  const inject = (method: string, url: string, payload?: object) => runtime.broker.server.inject({ method, url, payload, headers: auth });
  const ws = (path: string) =>
    new Promise<WebSocket>((resolve, reject) => {
      const socket = new WebSocket(runtime.url.replace(/^http/, 'ws') + path, { headers: auth });
      socket.once('open', () => resolve(socket));
      socket.once('error', reject);
    });
  const consumer = await ws('/ws/consume?queue=restart-q');
  const monitor = await ws('/ws/monitor');
  const published = await inject('POST', '/api/v1/topics/restart-t/messages', { payload: 'x' });
  expect(published.statusCode).toBe(201);
  const claimed = await inject('POST', '/api/v1/queues/restart-q/consume');
  expect(claimed.statusCode).toBe(200);
  await whileRunning();
  const closed = Promise.all([consumer, monitor].map((socket) => new Promise((resolve) => socket.once('close', resolve))));
  await runtime.stop();
  // The broker closed them (1001); the client side is gone once 'close' has come.
  await closed;
}

describe('starting and stopping the whole runtime', () => {
  const adminKey = newApiKey().key;
  let databaseUrl: string;
  let admin: pg.Client;
  const timers = timerCounter();

  const snapshot = async (): Promise<Snapshot> => ({
    timers: timers.count(),
    handles: activeHandles(),
    sessions: await databaseSessions(admin, databaseUrl),
  });

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    timers.stop();
    await admin.end();
  });

  it(`leaves no timer, socket or database connection behind, ${RESTARTS} times in a row`, async () => {
    const config = loadConfig({
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
      MINIQUEUE_SHUTDOWN_TIMEOUT_SECONDS: '5',
    });
    // The first life sets up the topology and loads every module once (module-level state is not a leak).
    const first = await startRuntime(config, quiet);
    const auth = { authorization: `Bearer ${adminKey}` };
    await first.broker.server.inject({ method: 'POST', url: '/api/v1/topics', payload: { name: 'restart-t' }, headers: auth });
    await first.broker.server.inject({ method: 'POST', url: '/api/v1/queues', payload: { name: 'restart-q', topic_name: 'restart-t' }, headers: auth });
    await exercise(first, adminKey);
    const before = await settled(snapshot);

    let running: Snapshot | undefined;
    for (let life = 0; life < RESTARTS; life += 1) {
      const runtime = await startRuntime(config, quiet);
      expect(runtime.health().every((service) => service.state === 'running')).toBe(true);
      await exercise(runtime, adminKey, async () => void (running = await snapshot()));
      expect(runtime.health()).toEqual([]);
    }

    const after = await settled(snapshot, before);
    console.log(`${RESTARTS} restarts: before ${JSON.stringify(before)}, while running ${JSON.stringify(running)}, after ${JSON.stringify(after)}`);
    // What is counted is what a running broker holds (so a leak would show).
    expect(running?.sessions).toBeGreaterThan(before.sessions);
    expect(running?.timers).toBeGreaterThan(before.timers);
    expect(after).toEqual(before);
  });
});

/**
 * Closed sockets and ended sessions take a moment to be gone. Without a target: waits until the
 * counts have not moved for a second. With one: waits (up to 10 s) until they match it.
 */
async function settled(snapshot: () => Promise<Snapshot>, target?: Snapshot): Promise<Snapshot> {
  let last = await snapshot();
  let steadySince = Date.now();
  const same = (a: Snapshot, b: Snapshot) => JSON.stringify(a) === JSON.stringify(b);
  await eventually(
    async () => {
      const next = await snapshot();
      if (!same(next, last)) steadySince = Date.now();
      last = next;
      return target ? same(next, target) : Date.now() - steadySince >= 1_000;
    },
    'resources to settle',
    10_000,
  ).catch(() => undefined);
  return last;
}
