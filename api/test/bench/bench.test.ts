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
  'consume_ack_pending_empty',
  'consume_ack_pending',
  'consume_ack_history_empty',
  'consume_ack_history',
];
const REFERENCES = ['raw_insert', 'raw_insert_notify', 'pgboss_send', 'pgboss_insert', 'pgboss_fetch_1', 'pgboss_fetch_10', 'pgboss_fetch_10_short'];

function runQuickBench(outputDir: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
      cwd: API_DIR,
      env: { ...process.env, BENCH_QUICK: '1', BENCH_OUTPUT_DIR: outputDir, BENCH_DATABASE_URL: '', BENCH_CPU_PROF: '' },
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

  it('reports every workload, the references, wake-up latencies, RSS and the targets', async () => {
    outputDir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-bench-test-'));
    const run = await runQuickBench(outputDir);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);

    const files = (await readdir(outputDir)).sort();
    expect(files.filter((file) => file.endsWith('.json'))).toHaveLength(1);
    expect(files.filter((file) => file.endsWith('.txt'))).toHaveLength(1);
    const results = JSON.parse(await readFile(path.join(outputDir, files.find((file) => file.endsWith('.json'))!), 'utf8')) as BenchResults;
    const text = await readFile(path.join(outputDir, files.find((file) => file.endsWith('.txt'))!), 'utf8');

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

    expect(results.wakeUp).not.toBeNull();
    for (const latency of [results.wakeUp!.sameInstance, results.wakeUp!.crossInstance]) {
      expect(latency.samples).toBeGreaterThan(0);
      expect(latency.p99).toBeGreaterThan(0);
    }
    expect(results.brokers.length).toBeGreaterThanOrEqual(4);
    for (const broker of results.brokers) expect(broker.peakRssBytes, broker.name).toBeGreaterThan(0);
    expect(results.postgres.settings.fsync).toBeDefined();
    expect(results.phases).toEqual(['references', 'main', 'pending', 'history']);

    expect(results.targets).toHaveLength(13);
    for (const target of results.targets) {
      expect(Number.isFinite(target.measured), target.description).toBe(true);
      expect(typeof target.met).toBe('boolean');
    }
    // The same report went to stdout and to the .txt copy.
    for (const report of [text, run.stdout]) {
      expect(report).toContain('TARGETS');
      expect(report).toContain('LONG-POLL WAKE-UP');
      expect(report).toContain('raw INSERT commits');
    }
  }, 180_000);
});
