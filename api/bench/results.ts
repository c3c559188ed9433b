import type { BenchConfig } from './config.js';
import type { Measurement } from './measure.js';
import type { ServerFacts } from './postgres.js';
import type { StoppedReaderResult } from './scenarios/stream.js';

/** Everything one run found, as written to artifacts/bench/<timestamp>.json (compare runs by it). */
export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  quick: boolean;
  /** The checkout whose broker was measured. */
  commit: string;
  machine: {
    cores: number;
    cpuModel: string;
    memoryGiB: number;
    os: string;
    node: string;
    /** 1, 5 and 15-minute load averages, at the start and at the end of the run. */
    loadAtStart: number[];
    loadAtEnd: number[];
  };
  postgres: ServerFacts & { embedded: boolean };
  concurrency: number;
  referenceConnections: number;
  /** The bounds this run used (counts, seconds, sizes). */
  config: Omit<BenchConfig, 'databaseUrl'>;
  /** Raw PostgreSQL and pg-boss figures, keyed by Measurement.id (empty if that phase was skipped). */
  references: Partial<Record<ReferenceId, Measurement>>;
  /** The phases that ran (BENCH_PHASES). */
  phases: string[];
  /** MiniQueue workloads, in the order they ran. */
  workloads: Measurement[];
  /** Seconds it took to build the 'big' states, and their size (null: phase skipped). */
  seeding: { pendingMessages: number; pendingSeconds: number | null; historyMessages: number; historySeconds: number | null };
  wakeUp: { sameInstance: Latency; crossInstance: Latency } | null;
  /** The stream protocol's workloads (null: phase skipped). */
  stream: StreamResults | null;
  /** RabbitMQ in the same run, or why it was not measured. */
  rabbitmq: RabbitResults;
  brokers: { name: string; peakRssBytes: number | null; cpuSeconds: number }[];
  targets: Target[];
}

export type ReferenceId = 'raw_insert' | 'raw_insert_notify' | 'pgboss_send' | 'pgboss_insert' | 'pgboss_fetch_1' | 'pgboss_fetch_10' | 'pgboss_fetch_10_short';

export interface StreamResults {
  /** Throughput workloads, in the order they ran. */
  workloads: Measurement[];
  latency: StreamLatencyResult | null;
  /** The same with the publisher on one broker and the subscriber on a second, same database. */
  latencyTwoBrokers: StreamLatencyResult | null;
  idle: IdleStreamsResult | null;
  stoppedReader: StoppedReaderResult | null;
  /** publish() → handler through the SDK (phases/sdk.ts), each with its consumer's settings. */
  sdkLatencies: SdkLatencyResult[];
}

export interface SdkLatencyResult extends StreamLatencyResult {
  id: string;
  label: string;
}

export interface StreamLatencyResult {
  /** Messages per second published. */
  rate: number;
  latency: Latency;
  /** Mean cores the broker used at that rate. */
  brokerCores: number | null;
  walBytesPerMessage: number | null;
}

export interface IdleStreamsResult {
  streams: number;
  opened: number;
  /** The broker's VmRSS with no stream open, and with all of them open and subscribed. */
  rssNone: number;
  rssOpen: number;
  openSeconds: number;
  /** Broker CPU seconds over `idleSeconds` while they sat idle. */
  idleCpuSeconds: number;
  idleSeconds: number;
}

export interface RabbitResults {
  /** 'measured', or why not ('not installed: …', 'skipped: …', 'failed: …'). */
  status: string;
  version: string | null;
  workloads: Measurement[];
  latency: Latency | null;
  peakRssBytes: number | null;
  cpuSeconds: number | null;
}

export interface Latency {
  samples: number;
  p50: number;
  p99: number;
  max: number;
}

export interface Target {
  description: string;
  /** The measured value (a ratio, milliseconds or megabytes, per `unit`). */
  measured: number;
  unit: '×' | 'ms' | 'MiB' | 'MB' | 'µs';
  threshold: number;
  /** '>=' : measured must be at least threshold; '<=' : at most. */
  comparison: '>=' | '<=';
  /** null: not measured in this run (a skipped phase). */
  met: boolean | null;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function latency(values: number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  return { samples: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN };
}
