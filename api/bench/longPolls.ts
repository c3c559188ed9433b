import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newApiKey } from '../src/auth/apiKeys.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { spawnBroker } from '../test/resilience/support/brokerProcess.js';
import { BenchClient, expectStatus } from './http.js';

/**
 * What waiting long polls cost the broker: thousands of consumers each waiting on
 * `POST /queues/{q}/consume?wait_seconds=20` of an empty queue. The broker runs in its own
 * process, so its resident memory is its own; this process plays the consumers.
 *   npx tsx bench/longPolls.ts [count]   (default 5,000)
 */
const COUNT = Number(process.argv[2] ?? 5_000);
const POOL_SIZE = 10;
const progress = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/**
 * The broker's pool connections that are running a statement, sampled 20 times over 2 s, and
 * which statements they were: what the waiting consumers cost the database.
 */
async function busyConnections(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const busy: number[] = [];
    const statements = new Set<string>();
    let open = 0;
    for (let i = 0; i < 20; i += 1) {
      const { rows } = await client.query(
        `SELECT state, left(regexp_replace(query, '\\s+', ' ', 'g'), 60) AS query
           FROM pg_stat_activity WHERE application_name = 'miniqueue'`,
      );
      const active = rows.filter((row) => row.state === 'active');
      for (const row of active) statements.add(row.query);
      busy.push(active.length);
      open = rows.length;
      await sleep(100);
    }
    const running = statements.size > 0 ? `: ${[...statements].join(' | ')}` : '';
    return `${open} open; running a statement: ${Math.min(...busy)} to ${Math.max(...busy)} (20 samples)${running}`;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-longpolls-'));
  const database = await startEmbeddedDatabase(dir);
  const adminKey = newApiKey().key;
  const broker = await spawnBroker({
    DATABASE_URL: database.url,
    MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
    MINIQUEUE_DB_POOL_SIZE: String(POOL_SIZE),
    MINIQUEUE_RATE_LIMIT_ENABLED: 'false',
    MINIQUEUE_LONG_POLLS_PER_CREDENTIAL: String(COUNT),
    LOG_LEVEL: 'warn',
  });
  const pid = broker.child.pid as number;
  const admin = new BenchClient(broker.url, adminKey, 4);
  try {
    expectStatus(await admin.request('POST', '/api/v1/topics', { name: 'lp' }), 201);
    expectStatus(await admin.request('POST', '/api/v1/queues', { name: 'lp-q', topic_name: 'lp' }), 201);
    const key = expectStatus(await admin.request('POST', '/api/v1/clients', { name: 'lp-consumer', scopes: ['consume:lp-q'] }), 201).body.api_key;
    const consumers = new BenchClient(broker.url, key, COUNT);
    // Warm up the routes and the pool, so the baseline is a broker that has served requests.
    for (let i = 0; i < 200; i += 1) expectStatus(await consumers.request('POST', '/api/v1/queues/lp-q/consume'), 204);
    await sleep(1_000);
    const idleRss = rssMb(pid);

    progress(`opening ${COUNT} long polls`);
    const answered: number[] = [];
    const polls = Array.from({ length: COUNT }, () =>
      consumers.request('POST', '/api/v1/queues/lp-q/consume?wait_seconds=20').then((reply) => answered.push(reply.status)),
    );
    await sleep(5_000);
    const waitingRss = rssMb(pid);
    const connections = await busyConnections(database.url);

    progress('publishing one message per waiting consumer');
    const started = Date.now();
    for (let i = 0; i < COUNT; i += 500) {
      const messages = Array.from({ length: Math.min(500, COUNT - i) }, (_, j) => ({ payload: `m${i + j}` }));
      expectStatus(await admin.request('POST', '/api/v1/topics/lp/messages/batch', { messages }), 201);
    }
    await Promise.all(polls);
    const wakeMs = Date.now() - started;
    consumers.close();

    const perPollKb = ((waitingRss - idleRss) * 1024) / COUNT;
    const delivered = answered.filter((status) => status === 200).length;
    process.stdout.write(
      [
        '',
        `${COUNT} long polls waiting on one broker (pool of ${POOL_SIZE}), ${os.cpus().length} CPUs, Node ${process.version}`,
        `  broker resident memory: ${idleRss.toFixed(0)} MB idle, ${waitingRss.toFixed(0)} MB while they wait (${perPollKb.toFixed(1)} KB per long poll)`,
        `  broker database connections while they wait: ${connections}`,
        `  publishing ${COUNT} messages (batches of 500) until every poll was answered: ${wakeMs} ms; ${delivered} got a message`,
        '',
      ].join('\n'),
    );
  } finally {
    admin.close();
    await broker.kill();
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('long-poll measurement failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
