import { percentile, type BenchStats, type Snapshot } from './stats.js';

export interface BenchSettings {
  producers: number;
  consumers: number;
  size: number;
  publish_batch: number;
  receive_batch: number;
  /** Over the stream: unacked messages pushed ahead to each consumer. */
  prefetch: number;
  queues: number;
  duration_seconds: number;
  prefill: number;
  /** Seconds of uncounted load before the clock started. */
  warmup_seconds: number;
}

export interface BenchReport {
  url: string;
  settings: BenchSettings;
  /** Seconds measured: the rates count what was done in them. */
  seconds: number;
  /** Totals, including the requests that were under way when the clock stopped. */
  published: number;
  acked: number;
  published_per_second: number;
  acked_per_second: number;
  /** Copies stored and not acked when the run ended. */
  backlog: number;
  /** Publish to ack, in milliseconds, of the messages published during the run. */
  latency_ms: { p50: number | null; p95: number | null; p99: number | null; max: number | null; samples: number };
  errors: { total: number; by_kind: Record<string, number> };
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

export function benchReport(url: string, settings: BenchSettings, stats: BenchStats, snapshot: Snapshot): BenchReport {
  const { seconds } = snapshot;
  const sorted = Float64Array.from(stats.latenciesMs).sort();
  const samples = Array.from(sorted);
  return {
    url,
    settings,
    seconds: round(seconds)!,
    published: stats.published,
    acked: stats.acked,
    published_per_second: Math.round(snapshot.published / seconds),
    acked_per_second: Math.round(snapshot.acked / seconds),
    backlog: stats.backlog,
    latency_ms: {
      p50: round(percentile(samples, 50)),
      p95: round(percentile(samples, 95)),
      p99: round(percentile(samples, 99)),
      max: round(samples.length ? samples[samples.length - 1] : null),
      samples: samples.length,
    },
    errors: { total: stats.errorCount, by_kind: Object.fromEntries(stats.errors) },
  };
}

const n = (value: number) => value.toLocaleString('en-US');
const ms = (value: number | null) => (value === null ? '-' : `${value} ms`);

export function renderReport(report: BenchReport): string {
  const { latency_ms: latency, errors } = report;
  const kinds = Object.entries(errors.by_kind).map(([kind, count]) => `${kind}: ${n(count)}`);
  return [
    `published  ${n(report.published_per_second)} msg/s (${n(report.published)} in ${report.seconds} s)`,
    `acked      ${n(report.acked_per_second)} msg/s (${n(report.acked)})`,
    `latency    publish to ack p50 ${ms(latency.p50)}, p95 ${ms(latency.p95)}, p99 ${ms(latency.p99)} (${n(latency.samples)} messages)`,
    `backlog    ${n(report.backlog)} left unacked`,
    `errors     ${n(errors.total)}${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
  ].join('\n');
}

/** One progress line: rates over the last interval, the backlog and errors so far. */
export function progressLine(elapsedSeconds: number, sentPerSecond: number, ackedPerSecond: number, stats: BenchStats): string {
  return `${String(Math.round(elapsedSeconds)).padStart(4)}s  sent ${n(Math.round(sentPerSecond))}/s  acked ${n(Math.round(ackedPerSecond))}/s  backlog ${n(stats.backlog)}  errors ${n(stats.errorCount)}`;
}

const many = (count: number, one: string) => `${n(count)} ${count === 1 ? one : `${one}s`}`;

/** What the measured run does, in a line: the load is the flags', and a reader should see it beside the numbers. */
export function loadLine(settings: BenchSettings, transport: 'stream' | 'http'): string {
  const over = settings.publish_batch === 1 && transport === 'stream' ? 'over the stream' : 'over HTTP';
  const producers =
    settings.producers === 0
      ? `no producer (${many(settings.prefill, 'message')} prefilled)`
      : `${many(settings.producers, 'producer')} publishing ${many(settings.publish_batch, 'message')} per request ${over}, one request in flight each`;
  const consumers =
    settings.consumers === 0
      ? 'no consumer'
      : transport === 'stream'
        ? `${many(settings.consumers, 'consumer')} over the stream (prefetch ${n(settings.prefetch)})`
        : `${many(settings.consumers, 'consumer')} claiming ${n(settings.receive_batch)} per request`;
  return `Measuring ${n(settings.duration_seconds)} s: ${producers}; ${consumers}; ${many(settings.queues, 'queue')}; all in this one process.`;
}

/**
 * Said beside a small load's numbers: with one message per request and few requests in flight, a
 * rate is one process waiting on round trips, not what the broker can take.
 */
export function smallLoadHint(settings: BenchSettings): string | null {
  if (settings.producers === 0 || settings.producers * settings.publish_batch > 4) return null;
  return (
    "This rate is round trips: one process, one message per request, one request in flight per producer, so each message waits for the last one's answer. " +
    'For what the broker can take, add load: more loops (--producers 16 --consumers 8), batches (--publish-batch 100 --transport http), several bench processes at once, ' +
    'or `npm run bench` in a clone of the repository (docs/performance.md).'
  );
}
