import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newApiKey } from '../src/auth/apiKeys.js';
import { loadConfig } from '../src/config.js';
import { startRuntime, type Runtime } from '../src/runtime.js';
import { BenchClient, expectStatus } from './http.js';
import { batchPublish, consumeAndAck, receiveAndBatchAck, singlePublish, wakeUpLatencies, type Limits } from './scenarios.js';
import { latencyLines, machineFacts, throughputTable, type Row } from './report.js';

// Bounded in count and in time, so a slow machine still finishes in about two minutes.
const LIMITS: Limits = { concurrency: 32, maxSeconds: 15 };
const WARMUP_MESSAGES = 300;
const SINGLE_MESSAGES = 20_000;
const BATCH_SIZE = 100;
const BATCHES = 500;
const RECEIVE_SIZE = 100;
const WAKE_SAMPLES = 200;
const TOPOLOGY = [
  { topic: 'bench.single', queue: 'bench-single' },
  { topic: 'bench.batch', queue: 'bench-batch' },
  { topic: 'bench.wake', queue: 'bench-wake' },
];

const progress = (line: string) => process.stderr.write(`${line}\n`);

async function createTopology(admin: BenchClient): Promise<{ publishKey: string; consumeKey: string }> {
  for (const { topic, queue } of TOPOLOGY) {
    expectStatus(await admin.request('POST', '/api/v1/topics', { name: topic }), 201);
    // A lease far longer than the run: nothing expires and comes back while we measure.
    expectStatus(await admin.request('POST', '/api/v1/queues', { name: queue, topic_name: topic, ack_timeout_seconds: 600 }), 201);
  }
  const key = async (name: string, scopes: string[]) =>
    expectStatus(await admin.request('POST', '/api/v1/clients', { name, scopes }), 201).body.api_key as string;
  return { publishKey: await key('bench-publisher', ['publish:*']), consumeKey: await key('bench-consumer', ['consume:*']) };
}

async function bench(runtime: Runtime, adminKey: string): Promise<string[]> {
  const admin = new BenchClient(runtime.url, adminKey, 2);
  const keys = await createTopology(admin);
  const publisher = new BenchClient(runtime.url, keys.publishKey, LIMITS.concurrency);
  const consumer = new BenchClient(runtime.url, keys.consumeKey, LIMITS.concurrency);
  try {
    progress('warming up');
    await singlePublish(publisher, 'bench.single', WARMUP_MESSAGES, LIMITS);
    await consumeAndAck(consumer, 'bench-single', LIMITS);

    const rows: Row[] = [];
    const measure = async (scenario: string, run: () => Promise<Row['result']>) => {
      progress(`measuring: ${scenario}`);
      rows.push({ scenario, result: await run() });
    };
    await measure('publish, 1 message per request', () => singlePublish(publisher, 'bench.single', SINGLE_MESSAGES, LIMITS));
    await measure(`publish, batches of ${BATCH_SIZE}`, () => batchPublish(publisher, 'bench.batch', BATCHES, BATCH_SIZE, LIMITS));
    await measure('consume + ack, 1 message each', () => consumeAndAck(consumer, 'bench-single', LIMITS));
    await measure(`receive ${RECEIVE_SIZE} + batch ack`, () => receiveAndBatchAck(consumer, 'bench-batch', RECEIVE_SIZE, LIMITS));

    progress('measuring: long-poll wake-up');
    const latencies = await wakeUpLatencies(consumer, publisher, runtime.broker.context.waiters, TOPOLOGY[2], WAKE_SAMPLES);

    const { rows: version } = await runtime.pool.query<{ server_version: string }>('SHOW server_version');
    return [
      'MiniQueue benchmark',
      '',
      ...machineFacts(`${version[0].server_version} (embedded, its own process)`),
      `clients:    ${LIMITS.concurrency} concurrent requests over keep-alive HTTP/1.1 to 127.0.0.1;`,
      '            the broker and this load generator share one Node process; one queue per topic',
      '',
      ...throughputTable(rows),
      '',
      ...latencyLines('long-poll wake-up, publish sent -> waiting consumer answered', latencies),
    ];
  } finally {
    for (const client of [admin, publisher, consumer]) client.close();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-bench-'));
  const adminKey = newApiKey().key;
  // Only these settings, not the caller's environment: always a fresh embedded database.
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    MINIQUEUE_DATA_DIR: dir,
    MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey,
    LOG_LEVEL: 'silent',
    // One key doing thousands of requests a second is the point here, not abuse.
    MINIQUEUE_RATE_LIMIT_ENABLED: 'false',
  });
  progress(`starting PostgreSQL and the broker in ${dir}`);
  const runtime = await startRuntime(config, { info: () => undefined, error: (message, error) => progress(`${message}: ${String(error)}`) });
  try {
    const report = await bench(runtime, adminKey);
    process.stdout.write(`\n${report.join('\n')}\n`);
  } finally {
    await runtime.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('benchmark failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
