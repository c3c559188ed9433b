import type { Measurement } from './measure.js';
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
};

export function find(results: Pick<BenchResults, 'workloads'>, id: string): Measurement | undefined {
  return results.workloads.find((workload) => workload.id === id);
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
    description, measured, unit: '×', threshold, comparison: '>=', met: met(measured, measured >= threshold),
  });
  const atMost = (description: string, measured: number, threshold: number, unit: Target['unit']): Target => ({
    description, measured, unit, threshold, comparison: '<=', met: met(measured, measured <= threshold),
  });
  const rss = results.brokers.map((broker) => broker.peakRssBytes).filter((bytes): bytes is number => bytes !== null);
  const peakRss = rss.length ? Math.max(...rss) / 2 ** 20 : Number.NaN;
  const wake = (path: 'sameInstance' | 'crossInstance') => results.wakeUp?.[path].p99 ?? Number.NaN;
  return [
    atLeast('publish, 1 per request ≥ 0.35 × raw commits', ratio(rate('publish_single'), raw), 0.35),
    atLeast('publish, 1 per request ≥ 2 × pg-boss send', ratio(rate('publish_single'), boss('pgboss_send')), 2),
    atLeast('consume + ack, 1 per request ≥ 0.20 × raw commits', ratio(rate('consume_ack'), raw), 0.2),
    atLeast('consume + ack, 1 per request ≥ 10 × pg-boss fetch+complete (batch 10)', ratio(rate('consume_ack'), boss('pgboss_fetch_10')), 10),
    atLeast('publish, batches of 100 ≥ 4 × raw commits', ratio(rate('publish_batch'), raw), 4),
    atLeast('publish, batches of 100 ≥ 1.3 × pg-boss insert(100)', ratio(rate('publish_batch'), boss('pgboss_insert')), 1.3),
    atLeast('receive 100 + batch ack ≥ 2.5 × raw commits', ratio(rate('receive_ack'), raw), 2.5),
    atLeast('consume + ack with a monitor socket ≥ 0.9 × without', ratio(rate('consume_ack_monitor'), rate('consume_ack_no_monitor')), 0.9),
    atLeast(`consume + ack with ${results.seeding.pendingMessages.toLocaleString('en-US')} pending ≥ 0.9 × empty`,
      ratio(rate('consume_ack_pending'), rate('consume_ack_pending_empty')), 0.9),
    atLeast(`consume + ack with ${results.seeding.historyMessages.toLocaleString('en-US')} acked in history ≥ 0.9 × empty`,
      ratio(rate('consume_ack_history'), rate('consume_ack_history_empty')), 0.9),
    atMost('long-poll wake-up p99 ≤ 20 ms, same instance', wake('sameInstance'), 20, 'ms'),
    atMost('long-poll wake-up p99 ≤ 20 ms, across instances', wake('crossInstance'), 20, 'ms'),
    atMost('broker peak RSS ≤ 250 MiB (largest of all broker processes)', peakRss, 250, 'MiB'),
  ];
}
