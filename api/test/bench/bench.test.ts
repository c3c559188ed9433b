import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BenchResults } from '../../bench/results.js';

/**
 * Keeps `npm run bench` from rotting: runs it end to end in BENCH_QUICK mode (its own embedded
 * PostgreSQL, compiled brokers in their own processes, raw PostgreSQL and pg-boss references) and
 * checks that the report has every workload with a positive rate and a TARGETS block. Speeds are
 * never asserted: on a shared test machine they mean nothing.
 */
const API_DIR = path.resolve(import.meta.dirname, '../..');

const WORKLOADS = [
  'publish_single',
  'publish_batch',
  'fan_out',
  'fan_out_20',
  'fan_out_20_filtered',
  'publish_single_ordered',
  'consume_ack_ordered',
  'consume_ack',
  'receive_ack',
  'consume_ack_no_monitor',
  'consume_ack_monitor',
  'consume_ack_gates_plain',
  'consume_ack_rate_limited',
  'consume_ack_single_active',
  'delivery_rate_200',
  'consume_ack_pending_empty',
  'consume_ack_pending',
  'consume_ack_history_empty',
  'consume_ack_history',
  'publish_single_unbounded',
  'publish_single_bounded',
  'publish_single_bounded_drop',
  'publish_single_no_expiry',
  'publish_single_expiring',
  'consume_ack_no_expiry',
  'consume_ack_ttl',
  'consume_ack_priorities_plain',
  'consume_ack_priorities',
  'publish_single_no_priority',
  'publish_single_priority',
  'fair_quiet_latency_idle',
  'fair_quiet_latency_noisy',
  'consume_ack_fair_plain',
  'consume_ack_fair',
];
const STREAM_WORKLOADS = [
  'stream_publish_1',
  'stream_publish_256',
  'stream_fan_out',
  'stream_consume_ack_p10',
  'stream_consume_ack_p100',
  'sdk_publish_256',
  'stream_consume_ack_p100_one_stream',
  'sdk_consume_c32_p100',
  'stream_consume_ack_p100_two_brokers',
  'stream_consume_ack_p10_r0',
  'stream_consume_ack_p100_r0',
];
/** Targets read against RabbitMQ, which quick mode skips (unless BENCH_RABBITMQ=1). */
const RABBITMQ_TARGETS = /RabbitMQ/;
const REFERENCES = ['raw_insert', 'raw_insert_notify', 'pgboss_send', 'pgboss_insert', 'pgboss_fetch_1', 'pgboss_fetch_10', 'pgboss_fetch_10_short'];

function runQuickBench(outputDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
      cwd: API_DIR,
      env: {
        ...process.env,
        BENCH_QUICK: '1',
        BENCH_OUTPUT_DIR: outputDir,
        BENCH_DATABASE_URL: '',
        BENCH_CPU_PROF: '',
        BENCH_ONLY: '',
        BENCH_PHASES: '',
        BENCH_RABBITMQ: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run bench (BENCH_QUICK)', () => {
  let outputDir: string | undefined;
  afterAll(async () => {
    if (outputDir) await rm(outputDir, { recursive: true, force: true });
  });

  // About a minute on a quiet machine, several on a busy one: every workload starts processes of its own.
  it('reports every workload, the references, the streams, wake-up latencies, RSS and the targets', async () => {
    outputDir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-bench-test-'));
    const run = await runQuickBench(outputDir);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);

    const files = (await readdir(outputDir)).sort();
    expect(files.filter((file) => file.endsWith('.json'))).toHaveLength(1);
    expect(files.filter((file) => file.endsWith('.txt'))).toHaveLength(1);
    const results = JSON.parse(
      await readFile(
        path.join(
          outputDir,
          files.find((file) => file.endsWith('.json'))!,
        ),
        'utf8',
      ),
    ) as BenchResults;
    const text = await readFile(
      path.join(
        outputDir,
        files.find((file) => file.endsWith('.txt'))!,
      ),
      'utf8',
    );

    expect(results.quick).toBe(true);
    expect(results.workloads.map((workload) => workload.id)).toEqual(WORKLOADS);
    for (const workload of results.workloads) {
      expect(workload.rate, workload.id).toBeGreaterThan(0);
      expect(workload.messages, workload.id).toBeGreaterThan(0);
      expect(workload.brokerCpuSeconds, workload.id).not.toBeNull();
      expect(workload.activity.samples, workload.id).toBeGreaterThan(0);
    }
    expect(Object.keys(results.references).sort()).toEqual([...REFERENCES].sort());
    for (const id of REFERENCES) expect(results.references[id as keyof BenchResults['references']]?.rate, id).toBeGreaterThan(0);
    expect(results.workloads.find((workload) => workload.id === 'fan_out')!.extra.copies).toBeGreaterThan(0);
    // Every filtered queue matches the bench's messages: as many copies as without filters.
    const copiesPerMessage = (id: string) => {
      const workload = results.workloads.find((candidate) => candidate.id === id)!;
      return workload.extra.copies / workload.messages;
    };
    expect(copiesPerMessage('fan_out_20_filtered')).toBe(20);
    expect(copiesPerMessage('fan_out_20')).toBe(20);
    expect(results.workloads.find((workload) => workload.id === 'consume_ack_monitor')!.extra.frames).toBeGreaterThan(0);
    // Fair sharing: every probe of the quiet key came, and the noisy key was served beside it.
    for (const id of ['fair_quiet_latency_idle', 'fair_quiet_latency_noisy']) {
      const fair = results.workloads.find((workload) => workload.id === id)!;
      expect(fair.extra.probes, id).toBe(2 * results.config.wakeSamples);
      expect(fair.extra.p50Ms, id).toBeGreaterThan(0);
      expect(fair.extra.p99Ms, id).toBeGreaterThanOrEqual(fair.extra.p50Ms);
    }
    expect(results.workloads.find((workload) => workload.id === 'fair_quiet_latency_noisy')!.extra.others).toBeGreaterThan(0);

    expect(results.wakeUp).not.toBeNull();
    for (const latency of [results.wakeUp!.sameInstance, results.wakeUp!.crossInstance]) {
      expect(latency.samples).toBeGreaterThan(0);
      expect(latency.p99).toBeGreaterThan(0);
    }
    // The stream workloads, each with a rate; latency, idle streams and the stopped reader.
    expect(results.stream).not.toBeNull();
    const stream = results.stream!;
    expect(stream.workloads.map((workload) => workload.id)).toEqual(STREAM_WORKLOADS);
    for (const workload of stream.workloads) {
      expect(workload.rate, workload.id).toBeGreaterThan(0);
      expect(workload.brokerCpuSeconds, workload.id).not.toBeNull();
    }
    expect(stream.workloads.find((workload) => workload.id === 'stream_fan_out')!.extra.copies).toBe(
      4 * stream.workloads.find((workload) => workload.id === 'stream_fan_out')!.messages,
    );
    expect(stream.latency!.latency.samples).toBeGreaterThan(0);
    // The same with the publisher on one broker and the subscriber on a second on the same database.
    expect(stream.latencyTwoBrokers!.latency.samples).toBeGreaterThan(0);
    // publish() → handler through the SDK, with the consumer's defaults and tuned.
    expect(stream.sdkLatencies.map((entry) => entry.id)).toEqual(['sdk_latency_defaults', 'sdk_latency_c32_p100']);
    for (const entry of stream.sdkLatencies) expect(entry.latency.samples, entry.id).toBeGreaterThan(0);
    expect(stream.idle!.opened).toBe(stream.idle!.streams);
    expect(stream.idle!.rssOpen).toBeGreaterThan(0);
    expect(stream.stoppedReader!.rssPeak).toBeGreaterThanOrEqual(stream.stoppedReader!.rssBefore);
    // RabbitMQ is not measured in quick mode, and the report says why.
    expect(results.rabbitmq.workloads).toEqual([]);
    expect(results.rabbitmq.status).toMatch(/^(skipped|not installed)/);

    expect(results.brokers.length).toBeGreaterThanOrEqual(7);
    for (const broker of results.brokers) expect(broker.peakRssBytes, broker.name).toBeGreaterThan(0);
    expect(results.postgres.settings.fsync).toBeDefined();
    expect(results.phases).toEqual(['references', 'main', 'stream', 'rabbitmq', 'pending', 'history', 'bounded', 'expiry', 'priorities', 'fairness']);

    expect(results.targets).toHaveLength(28);
    for (const target of results.targets) {
      if (RABBITMQ_TARGETS.test(target.description)) {
        expect(target.met, target.description).toBeNull();
        continue;
      }
      expect(Number.isFinite(target.measured), target.description).toBe(true);
      expect(typeof target.met).toBe('boolean');
    }
    // The same report went to stdout and to the .txt copy.
    for (const report of [text, run.stdout]) {
      expect(report).toContain('TARGETS');
      expect(report).toContain('LONG-POLL WAKE-UP');
      expect(report).toContain('FAIR SHARING');
      expect(report).toContain('raw INSERT commits');
      expect(report).toContain('MINIQUEUE over the stream');
      expect(report).toContain('RABBITMQ: ');
    }
  }, 420_000);
});
