import type { Broker } from './broker.js';
import type { LoadResult } from './http.js';
import { cpuSnapshot, otherCores } from './machine.js';
import { checkpoint } from './postgres.js';
import { sampled, type DatabaseActivity } from './sampling.js';
import { walBreakdown, type WalBreakdown } from './wal.js';

/**
 * One measured workload: its rate, and the evidence around it (what PostgreSQL waited on, WAL
 * written per message, CPU the brokers and this load generator used).
 */
export interface Measurement {
  /** Stable key, used by the targets and in the JSON (compare runs by it). */
  id: string;
  label: string;
  system: 'miniqueue' | 'postgres' | 'pg-boss' | 'rabbitmq';
  messages: number;
  requests: number;
  seconds: number;
  /** messages (or commits, or jobs) per second. */
  rate: number;
  activity: DatabaseActivity;
  walBytesPerMessage: number | null;
  /** The workload's WAL by kind and full-page images (all messages together), if readable. */
  wal: WalBreakdown | null;
  /** CPU seconds the broker processes used during the workload (null for the references). */
  brokerCpuSeconds: number | null;
  /** Broker CPU milliseconds per request. */
  brokerCpuMsPerRequest: number | null;
  /** CPU seconds of this process (the load generator), to see when it, not the broker, is the limit. */
  loadGeneratorCpuSeconds: number;
  /** Mean cores used by processes outside this run while it ran (other work on the machine). */
  otherCores: number | null;
  /** Anything else the workload counts (copies stored, monitor frames, ...). */
  extra: Record<string, number>;
}

export interface MeasureOptions {
  id: string;
  label: string;
  system: Measurement['system'];
  /** The database the workload writes to: sampled, and checkpointed first (none: not PostgreSQL). */
  databaseUrl?: string;
  /** The server's maintenance database, where the WAL is inspected. */
  serverUrl?: string;
  /** The broker processes whose CPU counts (MiniQueue brokers, or the RabbitMQ node). */
  brokers?: Pick<Broker, 'cpuSeconds'>[];
  sampleEveryMs: number;
  log: (line: string) => void;
}

/** What a workload that does not touch PostgreSQL (RabbitMQ's) shows of it. */
const NO_ACTIVITY: DatabaseActivity = { samples: 0, meanActive: 0, waits: [], walBytes: null, walRange: null };

export async function measure(options: MeasureOptions, work: () => Promise<LoadResult & { extra?: Record<string, number> }>): Promise<Measurement> {
  options.log(`measuring: ${options.label}`);
  if (options.databaseUrl) await checkpoint(options.databaseUrl);
  const brokers = options.brokers ?? [];
  const cpuBefore = brokers.map((broker) => broker.cpuSeconds());
  const ownBefore = process.cpuUsage();
  const machineBefore = cpuSnapshot();
  const { result, activity } = options.databaseUrl
    ? await sampled(options.databaseUrl, options.sampleEveryMs, work)
    : { result: await work(), activity: NO_ACTIVITY };
  const machineAfter = cpuSnapshot();
  const own = process.cpuUsage(ownBefore);
  const brokerCpu = brokers.length ? brokers.reduce((sum, broker, i) => sum + (broker.cpuSeconds() - cpuBefore[i]), 0) : null;
  const rate = result.seconds > 0 ? result.messages / result.seconds : 0;
  const wal = activity.walRange && options.serverUrl ? await walBreakdown(options.serverUrl, activity.walRange) : null;
  const measurement: Measurement = {
    id: options.id,
    label: options.label,
    system: options.system,
    messages: result.messages,
    requests: result.requests,
    seconds: result.seconds,
    rate,
    activity,
    walBytesPerMessage: activity.walBytes !== null && result.messages > 0 ? activity.walBytes / result.messages : null,
    wal,
    brokerCpuSeconds: brokerCpu,
    brokerCpuMsPerRequest: brokerCpu !== null && result.requests > 0 ? (brokerCpu * 1000) / result.requests : null,
    loadGeneratorCpuSeconds: (own.user + own.system) / 1e6,
    otherCores: otherCores(machineBefore, machineAfter),
    extra: result.extra ?? {},
  };
  options.log(`  ${Math.round(rate).toLocaleString('en-US')}/s (${result.messages.toLocaleString('en-US')} in ${result.seconds.toFixed(1)} s)`);
  return measurement;
}

/**
 * One measurement out of several runs of the same workload (the monitor comparison alternates
 * without / with, so that drift in the machine's speed falls on both sides equally).
 */
export function mergeMeasurements(parts: Measurement[]): Measurement {
  const [first] = parts;
  const sum = (pick: (m: Measurement) => number) => parts.reduce((total, m) => total + pick(m), 0);
  const samples = sum((m) => m.activity.samples);
  const observations = sum((m) => m.activity.meanActive * m.activity.samples);
  const counts = new Map<string, number>();
  for (const m of parts) {
    for (const wait of m.activity.waits) {
      counts.set(wait.event, (counts.get(wait.event) ?? 0) + wait.share * m.activity.meanActive * m.activity.samples);
    }
  }
  const walParts = parts.map((m) => m.activity.walBytes);
  const walBytes = walParts.every((bytes) => bytes !== null) ? walParts.reduce((total, bytes) => total! + bytes!, 0) : null;
  const messages = sum((m) => m.messages);
  const requests = sum((m) => m.requests);
  const seconds = sum((m) => m.seconds);
  const brokerCpu = parts.every((m) => m.brokerCpuSeconds !== null) ? sum((m) => m.brokerCpuSeconds!) : null;
  const wals = parts.map((m) => m.wal);
  let wal: WalBreakdown | null = null;
  if (wals.every((part) => part !== null)) {
    const kinds = new Map<string, number>();
    for (const part of wals) for (const { kind, bytes } of part!.byKind) kinds.set(kind, (kinds.get(kind) ?? 0) + bytes);
    wal = {
      recordBytes: wals.reduce((total, part) => total + part!.recordBytes, 0),
      fpiBytes: wals.reduce((total, part) => total + part!.fpiBytes, 0),
      byKind: [...kinds.entries()].map(([kind, bytes]) => ({ kind, bytes })).sort((a, b) => b.bytes - a.bytes),
    };
  }
  const extra: Record<string, number> = {};
  for (const m of parts) for (const [key, value] of Object.entries(m.extra)) extra[key] = (extra[key] ?? 0) + value;
  return {
    ...first,
    messages,
    requests,
    seconds,
    rate: seconds > 0 ? messages / seconds : 0,
    activity: {
      samples,
      meanActive: samples ? observations / samples : 0,
      waits: [...counts.entries()].map(([event, n]) => ({ event, share: observations ? n / observations : 0 })).sort((a, b) => b.share - a.share),
      walBytes,
      walRange: null,
    },
    walBytesPerMessage: walBytes !== null && messages > 0 ? walBytes / messages : null,
    wal,
    brokerCpuSeconds: brokerCpu,
    brokerCpuMsPerRequest: brokerCpu !== null && requests > 0 ? (brokerCpu * 1000) / requests : null,
    loadGeneratorCpuSeconds: sum((m) => m.loadGeneratorCpuSeconds),
    otherCores: parts.every((m) => m.otherCores !== null) ? sum((m) => m.otherCores! * m.seconds) / seconds : null,
    extra,
  };
}

/**
 * The measurements of a few alternating rounds (drift in the machine's speed falls on every side
 * alike), merged per workload id in the order each id first came.
 */
export class Rounds {
  private readonly parts = new Map<string, Measurement[]>();

  add(measurement: Measurement): Measurement {
    const parts = this.parts.get(measurement.id) ?? [];
    parts.push(measurement);
    this.parts.set(measurement.id, parts);
    return measurement;
  }

  merged(): Measurement[] {
    return [...this.parts.values()].map(mergeMeasurements);
  }
}
