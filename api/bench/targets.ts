import type { Measurement } from './measure.js';
import { FAIR_KEYS, FAIR_LATENCY_IDS, FAIR_PER_KEY } from './phases/fairness.js';
import type { BenchResults, Target } from './results.js';

/**
 * Which MiniQueue workload each figure is compared with. Ratios to raw commits use the plain
 * INSERT ceiling; ratios to pg-boss use its closest operation; "baseline" rows are the same
 * workload under the easy condition (no monitor socket, an empty database).
 */
export const PGBOSS_COUNTERPART: Record<string, { id: keyof BenchResults['references']; label: string }> = {
  publish_single: { id: 'pgboss_send', label: 'send' },
  publish_batch: { id: 'pgboss_insert', label: 'insert(100)' },
  consume_ack: { id: 'pgboss_fetch_10', label: 'fetch+complete(10)' },
  receive_ack: { id: 'pgboss_fetch_10', label: 'fetch+complete(10)' },
};

export const BASELINE: Record<string, string> = {
  consume_ack_monitor: 'consume_ack_no_monitor',
  consume_ack_pending: 'consume_ack_pending_empty',
  consume_ack_history: 'consume_ack_history_empty',
  fan_out_20_filtered: 'fan_out_20',
  publish_single_ordered: 'publish_single',
  consume_ack_ordered: 'consume_ack',
  consume_ack_rate_limited: 'consume_ack_gates_plain',
  consume_ack_single_active: 'consume_ack_gates_plain',
  publish_single_bounded: 'publish_single_unbounded',
  publish_single_bounded_drop: 'publish_single_unbounded',
  publish_single_expiring: 'publish_single_no_expiry',
  consume_ack_ttl: 'consume_ack_no_expiry',
  consume_ack_priorities: 'consume_ack_priorities_plain',
  publish_single_priority: 'publish_single_no_priority',
  consume_ack_fair: 'consume_ack_fair_plain',
};

/** The RabbitMQ workload each stream workload is read against (the same window or prefetch). */
export const RABBIT_COUNTERPART: Record<string, string> = {
  stream_publish_1: 'rabbitmq_publish_1',
  stream_publish_256: 'rabbitmq_publish_256',
  stream_fan_out: 'rabbitmq_fan_out_256',
  stream_consume_ack_p10: 'rabbitmq_consume_10',
  stream_consume_ack_p100: 'rabbitmq_consume_100',
  stream_consume_ack_p10_r0: 'rabbitmq_consume_10',
  stream_consume_ack_p100_r0: 'rabbitmq_consume_100',
  stream_consume_ack_p100_two_brokers: 'rabbitmq_consume_100',
  stream_consume_ack_p100_one_stream: 'rabbitmq_consume_100',
  sdk_publish_256: 'rabbitmq_publish_256',
  sdk_consume_c32_p100: 'rabbitmq_consume_100',
};

/** pg-boss's closest operation for each stream workload (none for fan-out). */
export const STREAM_PGBOSS_COUNTERPART: Record<string, { id: keyof BenchResults['references']; label: string }> = {
  stream_publish_1: PGBOSS_COUNTERPART.publish_single,
  stream_publish_256: PGBOSS_COUNTERPART.publish_single,
  stream_consume_ack_p10: PGBOSS_COUNTERPART.consume_ack,
  stream_consume_ack_p100: PGBOSS_COUNTERPART.consume_ack,
  stream_consume_ack_p10_r0: PGBOSS_COUNTERPART.consume_ack,
  stream_consume_ack_p100_r0: PGBOSS_COUNTERPART.consume_ack,
  stream_consume_ack_p100_two_brokers: PGBOSS_COUNTERPART.consume_ack,
};

export function find(results: Pick<BenchResults, 'workloads'>, id: string): Measurement | undefined {
  return results.workloads.find((workload) => workload.id === id);
}

export function findStream(results: Pick<BenchResults, 'stream'>, id: string): Measurement | undefined {
  return results.stream?.workloads.find((workload) => workload.id === id);
}

export function findRabbit(results: Pick<BenchResults, 'rabbitmq'>, id: string): Measurement | undefined {
  return results.rabbitmq.workloads.find((workload) => workload.id === id);
}

/** Broker CPU microseconds per message of a workload. */
export function cpuMicrosPerMessage(m: Measurement | undefined): number {
  if (!m || m.brokerCpuSeconds === null || m.messages <= 0) return Number.NaN;
  return (m.brokerCpuSeconds * 1e6) / m.messages;
}

/** A latency workload's figure in milliseconds (`extra.p50Ms`, `extra.p99Ms`, ...: phases/fairness.ts). */
export function latencyOf(results: Pick<BenchResults, 'workloads'>, id: string, figure: 'p50Ms' | 'p99Ms' | 'maxMs'): number {
  return find(results, id)?.extra[figure] ?? Number.NaN;
}

export function ratio(numerator: number | undefined, denominator: number | undefined): number {
  if (numerator === undefined || denominator === undefined || denominator <= 0) return Number.NaN;
  return numerator / denominator;
}

/** The performance targets, each with the value this run measured. */
export function evaluateTargets(results: Omit<BenchResults, 'targets'>): Target[] {
  const rate = (id: string) => find(results, id)?.rate;
  const raw = results.references.raw_insert?.rate;
  const boss = (id: keyof BenchResults['references']) => results.references[id]?.rate;
  const met = (measured: number, ok: boolean) => (Number.isFinite(measured) ? ok : null);
  const atLeast = (description: string, measured: number, threshold: number): Target => ({
    description,
    measured,
    unit: '×',
    threshold,
    comparison: '>=',
    met: met(measured, measured >= threshold),
  });
  const atMost = (description: string, measured: number, threshold: number, unit: Target['unit']): Target => ({
    description,
    measured,
    unit,
    threshold,
    comparison: '<=',
    met: met(measured, measured <= threshold),
  });
  const rss = results.brokers.map((broker) => broker.peakRssBytes).filter((bytes): bytes is number => bytes !== null);
  const peakRss = rss.length ? Math.max(...rss) / 2 ** 20 : Number.NaN;
  const wake = (path: 'sameInstance' | 'crossInstance') => results.wakeUp?.[path].p99 ?? Number.NaN;
  const streamRate = (id: string) => findStream(results, id)?.rate;
  const rabbitRate = (id: string) => findRabbit(results, id)?.rate;
  const streamLatency = results.stream?.latency?.latency;
  const idle = results.stream?.idle;
  const stopped = results.stream?.stoppedReader;
  const mb = (bytes: number | undefined) => (bytes === undefined ? Number.NaN : bytes / 1e6);
  const idleStreams = (idle?.streams ?? 1_000).toLocaleString('en-US');
  const stalled = stopped ? `${stopped.stallSeconds} s while ${stopped.waiting.toLocaleString('en-US')} wait` : 'while messages wait';
  return [
    atLeast('publish, 1 per request ≥ 0.35 × raw commits', ratio(rate('publish_single'), raw), 0.35),
    atLeast('publish, 1 per request ≥ 2 × pg-boss send', ratio(rate('publish_single'), boss('pgboss_send')), 2),
    atLeast('consume + ack, 1 per request ≥ 0.20 × raw commits', ratio(rate('consume_ack'), raw), 0.2),
    atLeast('consume + ack, 1 per request ≥ 10 × pg-boss fetch+complete (batch 10)', ratio(rate('consume_ack'), boss('pgboss_fetch_10')), 10),
    atLeast('publish, batches of 100 ≥ 4 × raw commits', ratio(rate('publish_batch'), raw), 4),
    atLeast('publish, batches of 100 ≥ 1.3 × pg-boss insert(100)', ratio(rate('publish_batch'), boss('pgboss_insert')), 1.3),
    atLeast('receive 100 + batch ack ≥ 2.5 × raw commits', ratio(rate('receive_ack'), raw), 2.5),
    atLeast('consume + ack with a monitor socket ≥ 0.9 × without', ratio(rate('consume_ack_monitor'), rate('consume_ack_no_monitor')), 0.9),
    atLeast(
      `consume + ack with ${results.seeding.pendingMessages.toLocaleString('en-US')} pending ≥ 0.9 × empty`,
      ratio(rate('consume_ack_pending'), rate('consume_ack_pending_empty')),
      0.9,
    ),
    atLeast(
      `consume + ack with ${results.seeding.historyMessages.toLocaleString('en-US')} acked in history ≥ 0.9 × empty`,
      ratio(rate('consume_ack_history'), rate('consume_ack_history_empty')),
      0.9,
    ),
    atLeast(
      `consume + ack with ${results.seeding.pendingMessages.toLocaleString('en-US')} pending in 10 priorities ≥ 0.9 × the same without priorities`,
      ratio(rate('consume_ack_priorities'), rate('consume_ack_priorities_plain')),
      0.9,
    ),
    atLeast(
      `consume + ack on a fair queue (${FAIR_KEYS} keys, at most ${FAIR_PER_KEY} in flight each) ≥ 0.5 × the same on a plain queue`,
      ratio(rate('consume_ack_fair'), rate('consume_ack_fair_plain')),
      0.5,
    ),
    atMost(
      `a quiet key's publish → delivery p50 with ${results.config.big.toLocaleString('en-US')} pending on a noisy key ≤ 2 × on an idle fair queue`,
      ratio(latencyOf(results, FAIR_LATENCY_IDS.noisy, 'p50Ms'), latencyOf(results, FAIR_LATENCY_IDS.idle, 'p50Ms')),
      2,
      '×',
    ),
    atMost('long-poll wake-up p99 ≤ 20 ms, same instance', wake('sameInstance'), 20, 'ms'),
    atMost('long-poll wake-up p99 ≤ 20 ms, across instances', wake('crossInstance'), 20, 'ms'),
    atMost('broker peak RSS ≤ 250 MiB (largest of all broker processes)', peakRss, 250, 'MiB'),
    atLeast(
      'stream publish, 1 per frame, 256 in flight ≥ 1.0 × RabbitMQ publish with confirms (window 256)',
      ratio(streamRate('stream_publish_256'), rabbitRate('rabbitmq_publish_256')),
      1,
    ),
    atLeast('stream publish, 1 per frame, 256 in flight ≥ 2.0 × raw commits', ratio(streamRate('stream_publish_256'), raw), 2),
    atLeast(
      'stream consume + ack, 1 at a time, prefetch 100 (retention 24 h) ≥ 1.0 × RabbitMQ consume + ack (prefetch 100)',
      ratio(streamRate('stream_consume_ack_p100'), rabbitRate('rabbitmq_consume_100')),
      1,
    ),
    atMost('stream publish → delivery at 1,000 msgs/s, p50 ≤ 3 ms', streamLatency?.p50 ?? Number.NaN, 3, 'ms'),
    atMost('stream publish → delivery at 1,000 msgs/s, p99 ≤ 15 ms', streamLatency?.p99 ?? Number.NaN, 15, 'ms'),
    atMost('broker CPU per streamed publish (256 in flight) ≤ 30 µs', cpuMicrosPerMessage(findStream(results, 'stream_publish_256')), 30, 'µs'),
    atMost(`${idleStreams} idle subscribed streams ≤ 100 MB more broker RSS than none`, idle ? mb(idle.rssOpen - idle.rssNone) : Number.NaN, 100, 'MB'),
    atMost(`a subscriber that stops reading for ${stalled} ≤ 50 MB more broker RSS`, stopped ? mb(stopped.rssPeak - stopped.rssBefore) : Number.NaN, 50, 'MB'),
    ...sdkTargets(results),
  ];
}

/** The SDK as users run it, each against the raw protocol client with the same settings, in the same run. */
function sdkTargets(results: Omit<BenchResults, 'targets'>): Target[] {
  const streamRate = (id: string) => findStream(results, id)?.rate;
  const raw = results.stream?.latency?.latency;
  const sdk = results.stream?.sdkLatencies.find((entry) => entry.id === 'sdk_latency_c32_p100')?.latency;
  const target = (description: string, measured: number, threshold: number, comparison: Target['comparison']): Target => ({
    description,
    measured,
    unit: '×',
    threshold,
    comparison,
    met: Number.isFinite(measured) ? (comparison === '>=' ? measured >= threshold : measured <= threshold) : null,
  });
  return [
    target('SDK publish(), defaults, 256 in flight ≥ 0.9 × the raw client', ratio(streamRate('sdk_publish_256'), streamRate('stream_publish_256')), 0.9, '>='),
    target(
      'SDK consumer (concurrency 32, prefetch 100) ≥ 0.9 × the raw client on 1 stream, prefetch 100',
      ratio(streamRate('sdk_consume_c32_p100'), streamRate('stream_consume_ack_p100_one_stream')),
      0.9,
      '>=',
    ),
    target('SDK publish() → handler p50 ≤ 1.2 × the raw client (concurrency 32, prefetch 100)', ratio(sdk?.p50, raw?.p50), 1.2, '<='),
    target('SDK publish() → handler p99 ≤ 1.2 × the raw client (concurrency 32, prefetch 100)', ratio(sdk?.p99, raw?.p99), 1.2, '<='),
  ];
}
