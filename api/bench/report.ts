import type { Measurement } from './measure.js';
import type { BenchResults, Latency, Target } from './results.js';
import { BASELINE, PGBOSS_COUNTERPART, find, ratio } from './targets.js';

/** The text report: machine facts, references, one MiniQueue table, latencies, RSS, TARGETS. */

const int = (value: number | null | undefined) => (value === null || value === undefined || !Number.isFinite(value) ? '—' : Math.round(value).toLocaleString('en-US'));
const times = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)}×` : '—');
const mib = (bytes: number | null) => (bytes === null ? '—' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
const ms = (value: number) => `${value.toFixed(2)} ms`;

function table(header: string[], rows: string[][], leftColumns = 1): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column < leftColumns || column === row.length - 1 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
}

/** The top wait events as `event share%`, and the mean number of busy backends. */
export function waits(measurement: Measurement, top = 3): string {
  const { activity } = measurement;
  if (activity.samples === 0) return '—';
  const events = activity.waits.slice(0, top).map((wait) => `${wait.event} ${Math.round(wait.share * 100)}%`);
  return `${events.join(', ') || 'idle'} (${activity.meanActive.toFixed(1)} active)`;
}

const cpu = (measurement: Measurement) =>
  measurement.brokerCpuMsPerRequest === null ? '—' : `${measurement.brokerCpuMsPerRequest.toFixed(2)} s`;

function referenceLines(results: BenchResults): string[] {
  const r = results.references;
  const rows = (Object.values(r) as Measurement[]).map((m) => [m.label, int(m.rate), int(m.walBytesPerMessage), waits(m)]);
  return [
    `REFERENCES (same PostgreSQL, same database, ${results.referenceConnections} connections / callers, in this run)`,
    ...table(['reference', 'per second', 'WAL B/each', 'top wait events (share of active backends)'], rows),
  ];
}

function workloadLines(results: BenchResults): string[] {
  const raw = results.references.raw_insert.rate;
  const rows = results.workloads.map((m) => {
    const boss = PGBOSS_COUNTERPART[m.id];
    const baseline = BASELINE[m.id];
    return [
      m.label,
      int(m.rate),
      times(ratio(m.rate, raw)),
      boss ? `${times(ratio(m.rate, results.references[boss.id].rate))} ${boss.label}` : '—',
      baseline ? times(ratio(m.rate, find(results, baseline)?.rate)) : '—',
      int(m.walBytesPerMessage),
      cpu(m),
      waits(m),
    ];
  });
  return [
    `MINIQUEUE over HTTP (${results.concurrency} requests in flight from this process, keep-alive, 127.0.0.1)`,
    ...table(['workload', 'msgs/s', '× raw', '× pg-boss', '× baseline', 'WAL B/msg', 'CPU/1k req', 'top wait events (share of active backends)'], rows),
    '× raw: msgs/s over raw INSERT commits/s.  × baseline: over the row without the monitor / the empty database.',
    'CPU/1k req: broker CPU seconds (user+system) per 1,000 HTTP requests.',
  ];
}

function extras(results: BenchResults): string[] {
  const lines: string[] = [];
  const fanOut = find(results, 'fan_out');
  if (fanOut) {
    lines.push(`fan-out: ${int(fanOut.messages)} messages published, ${int(fanOut.extra.copies)} copies stored (${int(fanOut.extra.copies / fanOut.seconds)} copies/s)`);
  }
  const monitor = find(results, 'consume_ack_monitor');
  if (monitor) lines.push(`monitor socket: ${int(monitor.extra.frames)} frames, ${int(monitor.extra.bytes)} bytes received during the workload`);
  const s = results.seeding;
  lines.push(`seeding: ${int(s.pendingMessages)} pending in ${s.pendingSeconds.toFixed(0)} s; ${int(s.historyMessages)} acked history in ${s.historySeconds.toFixed(0)} s`);
  return lines;
}

const latencyLine = (label: string, l: Latency) =>
  `${label} (${l.samples} samples): p50 ${ms(l.p50)}   p99 ${ms(l.p99)}   max ${ms(l.max)}`;

export function targetLine(target: Target): string {
  const value = target.unit === '×' ? times(target.measured) : `${target.measured.toFixed(target.unit === 'ms' ? 2 : 0)} ${target.unit}`;
  return `  ${target.met ? 'met    ' : 'NOT MET'}  ${value.padStart(10)}   ${target.description}`;
}

export function renderReport(results: BenchResults): string {
  const m = results.machine;
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const settings = Object.entries(results.postgres.settings).map(([name, value]) => `${name}=${value}`).join(', ');
  return [
    `MiniQueue benchmark${results.quick ? ' (BENCH_QUICK: tiny counts, the figures mean nothing)' : ''}`,
    '',
    'MACHINE',
    `  cpu:        ${m.cores} cores, ${m.cpuModel}; ${m.memoryGiB.toFixed(1)} GiB; ${m.os}`,
    `  load:       ${load(m.loadAtStart)} at the start, ${load(m.loadAtEnd)} at the end (1/5/15-minute averages)`,
    `  node:       ${m.node}`,
    `  postgresql: ${results.postgres.version}${results.postgres.embedded ? ' (embedded, its own process)' : ' (BENCH_DATABASE_URL)'}`,
    `              ${settings}`,
    `  broker:     commit ${results.commit}, compiled JavaScript (api/dist/start.js) in its own process`,
    `  run:        ${results.startedAt} → ${results.finishedAt}`,
    '',
    ...referenceLines(results),
    '',
    ...workloadLines(results),
    '',
    ...extras(results),
    '',
    'LONG-POLL WAKE-UP, publish sent → waiting consumer answered',
    `  ${latencyLine('same instance', results.wakeUp.sameInstance)}`,
    `  ${latencyLine('across instances (consumer on B, publish on A)', results.wakeUp.crossInstance)}`,
    '',
    'BROKER PROCESSES (peak RSS = VmHWM at the end)',
    ...results.brokers.map((b) => `  ${b.name.padEnd(10)} peak RSS ${mib(b.peakRssBytes).padStart(8)}   CPU ${b.cpuSeconds.toFixed(1)} s`),
    '',
    'TARGETS (issue 11)',
    ...results.targets.map(targetLine),
    `  ${results.targets.filter((t) => t.met).length} of ${results.targets.length} met`,
  ].join('\n');
}
