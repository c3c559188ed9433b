import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '@miniqueue/api/testing';
import { json, runCli, spawnCli } from './helpers/cli.js';

let broker: TestBroker;

beforeAll(async () => {
  // As `npm run bench` runs its brokers: one key doing thousands of requests a second is the point.
  broker = await startTestBroker({ listen: true, env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
});
afterAll(async () => {
  await broker?.stop();
});

const bench = (...args: string[]) => runCli(['bench', '--url', broker.url, '--api-key', broker.adminKey, ...args]);

async function leftovers(): Promise<string[]> {
  const topics = (await broker.get('/api/v1/topics', broker.adminKey)).body.map((t: { name: string }) => t.name);
  const clients = (await broker.get('/api/v1/clients', broker.adminKey)).body.map((c: { name: string }) => c.name);
  return [...topics, ...clients].filter((name: string) => name.startsWith('bench-'));
}

describe('bench', () => {
  it('publishes and acks through a fan-out, accounts for every copy, reports latency, and cleans up', async () => {
    const report = json(await bench('-x', '2', '-y', '4', '--queues', '2', '--duration', '2', '--size', '300', '--json'));
    expect(report.settings).toMatchObject({ producers: 2, consumers: 4, queues: 2, size: 300, duration_seconds: 2 });
    expect(report.published).toBeGreaterThan(0);
    expect(report.acked).toBeGreaterThan(0);
    // Every stored copy (two per message) is either acked or still in the backlog.
    expect(report.acked + report.backlog).toBe(report.published * 2);
    expect(report.errors.total).toBe(0);
    expect(report.latency_ms.samples).toBe(report.acked);
    expect(report.latency_ms.p50).toBeGreaterThan(0);
    expect(report.latency_ms.p50).toBeLessThanOrEqual(report.latency_ms.p95);
    expect(report.latency_ms.p95).toBeLessThanOrEqual(report.latency_ms.p99);
    expect(report.seconds).toBeGreaterThan(1.5);
    expect(report.seconds).toBeLessThan(3);
    expect(await leftovers()).toEqual([]);
  });

  it('batches on both sides, and drains a prefilled queue with no producer', async () => {
    const batched = json(
      await bench('-x', '1', '-y', '1', '--publish-batch', '50', '--receive-batch', '50', '--transport', 'http', '--duration', '1', '--json'),
    );
    expect(batched.published % 50).toBe(0);
    expect(batched.acked + batched.backlog).toBe(batched.published);
    const drained = json(await bench('-x', '0', '-y', '4', '--prefill', '600', '--duration', '30', '--json'));
    expect(drained.acked).toBe(600);
    expect(drained.backlog).toBe(0);
    // Prefilled messages were published before the clock: they carry no latency.
    expect(drained.latency_ms.samples).toBe(0);
    expect(drained.seconds).toBeLessThan(30);
  });

  it('consumers go over the stream with --prefetch, and drain over it too; --transport http opens no stream', async () => {
    const streams = { count: 0 };
    broker.broker.server.listener.on('upgrade', (request) => {
      if (new URL(request.url ?? '/', 'http://x').pathname === '/ws/v1/stream') streams.count += 1;
    });
    const streamed = json(await bench('-x', '1', '-y', '2', '--prefetch', '50', '--duration', '1', '--warmup', '0', '--json'));
    expect(streamed.settings).toMatchObject({ consumers: 2, prefetch: 50 });
    expect(streamed.acked).toBeGreaterThan(0);
    expect(streamed.errors.total).toBe(0);
    expect(streamed.latency_ms.samples).toBe(streamed.acked);
    expect(streams.count).toBeGreaterThanOrEqual(2); // one per client: the publisher's and the consumers'
    const drained = json(await bench('-x', '0', '-y', '3', '--prefill', '900', '--duration', '30', '--json'));
    expect(drained).toMatchObject({ acked: 900, backlog: 0 });
    expect(drained.seconds).toBeLessThan(30);
    streams.count = 0;
    const overHttp = json(await bench('-x', '1', '-y', '1', '--transport', 'http', '--duration', '1', '--warmup', '0', '--json'));
    expect(overHttp.acked).toBeGreaterThan(0);
    expect(streams.count).toBe(0);
  });

  it('prints a progress line a second on stderr and the summary on stdout', async () => {
    const result = await spawnCli(['bench', '--duration', '3', '--url', broker.url], { env: { MINIQUEUE_API_KEY: broker.adminKey } });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toMatch(/^\s+1s {2}sent [\d,]+\/s {2}acked [\d,]+\/s {2}backlog [\d,]+ {2}errors 0$/m);
    expect(result.stderr).toMatch(/^\s+2s /m);
    expect(result.stdout).toMatch(/^published {2}[\d,]+ msg\/s/m);
    expect(result.stdout).toMatch(/^latency {4}publish to ack p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms/m);
    // The warm-up is announced, then what is measured, and a default run says why its rate is low.
    expect(result.stderr).toMatch(/^Warming up for 3 s: the same load, not counted \(--warmup 0 skips it\)\.$/m);
    expect(result.stderr).toMatch(
      /^Measuring 3 s: 1 producer publishing 1 message per request over the stream, one request in flight each; 1 consumer over the stream \(prefetch 10\); 1 queue; all in this one process\.$/m,
    );
    expect(result.stderr).toContain('This rate is round trips: one process, one message per request');
    expect(result.stderr).toContain('--producers 16 --consumers 8');
    expect(result.stderr.indexOf('Warming up')).toBeLessThan(result.stderr.indexOf('Measuring'));
  });
});
