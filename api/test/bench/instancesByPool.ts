/**
 * How many broker instances one PostgreSQL serves: N brokers × pool size P on one embedded
 * PostgreSQL 17, each driven with single publishes over HTTP (the most statement-heavy path per
 * message) for a few seconds, then receive 100 + batch ack of what that stored (a drain: its rate is
 * bounded by the backlog, its connection count is what matters). Prints, per shape: messages/s, the
 * database's client connections, and the cores used by PostgreSQL and by the brokers.
 *
 *   node --import tsx test/bench/instancesByPool.ts [seconds per shape, default 5]
 *
 * Short on purpose: the figures are for docs/scaling.md, on a shared 2-core machine.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { spawnBroker, type BrokerProcess } from '../resilience/support/brokerProcess.js';

const SECONDS = Number(process.argv[2] ?? 5);
const SHAPES = [
  [1, 4],
  [1, 10],
  [2, 4],
  [2, 10],
  [4, 4],
  [4, 10],
  [8, 4],
] as const;
const IN_FLIGHT = 64;
const TICKS = 100; // USER_HZ on Linux

/** utime + stime of a process, in seconds. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** The postmaster and its children (backends, walwriter, …): this cluster's processes only. */
function postgresCpu(postmaster: number): number {
  let total = cpuSeconds(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (new RegExp(`^PPid:\\s+${postmaster}$`, 'm').test(status)) total += cpuSeconds(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function measure(label: string, brokers: BrokerProcess[], postmaster: number, databaseUrl: string, work: (url: string) => Promise<number>) {
  const cpuBefore = { pg: postgresCpu(postmaster), brokers: brokers.reduce((sum, b) => sum + cpuSeconds(b.child.pid!), 0) };
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, i) => {
      const url = brokers[i % brokers.length].url;
      while (Date.now() < deadline) {
        const finished = await work(url);
        done += finished;
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  const { rows } = await admin.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name LIKE 'miniqueue%'",
  );
  await admin.end();
  const cores = {
    pg: (postgresCpu(postmaster) - cpuBefore.pg) / elapsed,
    brokers: (brokers.reduce((sum, b) => sum + cpuSeconds(b.child.pid!), 0) - cpuBefore.brokers) / elapsed,
  };
  console.log(
    `${label.padEnd(34)} ${Math.round(done / elapsed)
      .toString()
      .padStart(7)} msgs/s  connections ${String(rows[0].n).padStart(3)}  cores: postgres ${cores.pg.toFixed(2)}, brokers ${cores.brokers.toFixed(2)}`,
  );
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-instances-'));
  const database = await startEmbeddedDatabase(dataDir);
  const postmaster = Number(readFileSync(path.join(database.clusterDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const adminKey = newApiKey().key;
  console.log(`${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}; ${SECONDS} s per shape, ${IN_FLIGHT} requests in flight`);
  try {
    for (const [instances, pool] of SHAPES) {
      const env = {
        DATABASE_URL: database.url,
        MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
        MINIQUEUE_DB_POOL_SIZE: String(pool),
        MINIQUEUE_RATE_LIMIT_ENABLED: 'false',
        LOG_LEVEL: 'warn',
      };
      const brokers: BrokerProcess[] = [];
      for (let i = 0; i < instances; i += 1) brokers.push(await spawnBroker(env));
      const topic = `t${instances}x${pool}`;
      // The body is always read: an unread one keeps its keep-alive connection from the next request.
      const call = async (url: string, method: string, route: string, body?: unknown) => {
        const response = await fetch(`${url}${route}`, {
          method,
          headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, json: () => JSON.parse(text) as unknown };
      };
      await call(brokers[0].url, 'POST', '/api/v1/topics', { name: topic });
      await call(brokers[0].url, 'POST', '/api/v1/queues', { name: `${topic}-q`, topic_name: topic });
      try {
        await measure(`${instances} × pool ${pool}, publish 1/request`, brokers, postmaster, database.url, async (url) =>
          (await call(url, 'POST', `/api/v1/topics/${topic}/messages`, { payload: 'x' })).status === 201 ? 1 : 0,
        );
        await measure(`${instances} × pool ${pool}, drain: receive 100 + ack`, brokers, postmaster, database.url, async (url) => {
          const received = (await call(url, 'POST', `/api/v1/queues/${topic}-q/receive`, { max_messages: 100 })).json() as {
            messages?: { message_id: string }[];
          };
          const ids = (received.messages ?? []).map((m) => m.message_id);
          if (ids.length === 0) return 0;
          return (await call(url, 'POST', '/api/v1/messages/ack', { message_ids: ids })).status === 200 ? ids.length : 0;
        });
      } finally {
        await Promise.all(brokers.map((broker) => broker.kill()));
      }
    }
  } finally {
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
