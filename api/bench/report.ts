import type { Measurement } from './measure.js';
import type { BenchResults, Latency, Target } from './results.js';
import { FAIR_LATENCY_IDS } from './phases/fairness.js';
import { BASELINE, PGBOSS_COUNTERPART, RABBIT_COUNTERPART, STREAM_PGBOSS_COUNTERPART, cpuMicrosPerMessage, find, findRabbit, ratio } from './targets.js';

/** The text report: machine facts, references, one MiniQueue table, WAL, latencies, RSS, TARGETS. */

const int = (value: number | null | undefined) =>
  value === null || value === undefined || !Number.isFinite(value) ? '—' : Math.round(value).toLocaleString('en-US');
const times = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(1)}×` : '—');
const mib = (bytes: number | null) => (bytes === null ? '—' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);
const ms = (value: number) => `${value.toFixed(2)} ms`;

function table(header: string[], rows: string[][], leftColumns = 1): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column < leftColumns || column === row.length - 1 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)];
}

/** The top wait events as `event share%`, and the mean number of busy backends. */
export function waits(measurement: Measurement, top = 3): string {
  const { activity } = measurement;
  if (activity.samples === 0) return '—';
  const events = activity.waits.slice(0, top).map((wait) => `${wait.event} ${Math.round(wait.share * 100)}%`);
  return `${events.join(', ') || 'idle'} (${activity.meanActive.toFixed(1)} active)`;
}

/** Cores other processes used meanwhile; a '!' marks a row they disturbed. */
const others = (m: Measurement) => (m.otherCores === null ? '—' : `${m.otherCores.toFixed(2)}${m.otherCores > DISTURBED ? ' !' : ''}`);
const DISTURBED = 0.2;

const cpu = (measurement: Measurement) => (measurement.brokerCpuMsPerRequest === null ? '—' : `${measurement.brokerCpuMsPerRequest.toFixed(2)} s`);

/** Total WAL per message, with the share of full-page images when pg_walinspect could tell. */
function walCell(m: Measurement): string {
  const total = int(m.walBytesPerMessage);
  if (!m.wal || m.activity.walBytes === null || m.activity.walBytes === 0) return total;
  return `${total} (${Math.round((m.wal.fpiBytes / (m.wal.recordBytes + m.wal.fpiBytes || 1)) * 100)}%)`;
}

function referenceLines(results: BenchResults): string[] {
  const rows = (Object.values(results.references) as Measurement[]).map((m) => [m.label, int(m.rate), walCell(m), others(m), waits(m)]);
  if (rows.length === 0) return ['REFERENCES: not run (BENCH_PHASES)'];
  return [
    `REFERENCES (same PostgreSQL, same database, ${results.referenceConnections} connections / callers, in this run)`,
    ...table(['reference', 'per second', 'WAL B/each (FPI)', 'other cores', 'top wait events (share of active backends)'], rows),
  ];
}

function workloadLines(results: BenchResults): string[] {
  const raw = results.references.raw_insert?.rate;
  const rows = results.workloads.map((m) => {
    const boss = PGBOSS_COUNTERPART[m.id];
    const baseline = BASELINE[m.id];
    return [
      m.label,
      int(m.rate),
      times(ratio(m.rate, raw)),
      boss ? `${times(ratio(m.rate, results.references[boss.id]?.rate))} ${boss.label}` : '—',
      baseline ? times(ratio(m.rate, find(results, baseline)?.rate)) : '—',
      walCell(m),
      cpu(m),
      others(m),
      waits(m),
    ];
  });
  return [
    `MINIQUEUE over HTTP (${results.concurrency} requests in flight from this process, keep-alive, 127.0.0.1)`,
    ...table(
      ['workload', 'msgs/s', '× raw', '× pg-boss', '× baseline', 'WAL B/msg (FPI)', 'CPU/1k req', 'other cores', 'top wait events (share of active backends)'],
      rows,
    ),
    '× raw: msgs/s over raw INSERT commits/s.  × baseline: over the row without the monitor / on the empty database.',
    'WAL B/msg: all WAL the server wrote during the workload per message; (FPI): share that was full-page images',
    '  (a CHECKPOINT runs before each workload).  CPU/1k req: broker CPU seconds (user+system) per 1,000 requests.',
    'Wait events: CPU = active with no wait event (running, or runnable and waiting for a core).',
    `Other cores: mean cores used meanwhile by processes outside this run; '!' above ${DISTURBED}: that row was disturbed.`,
  ];
}

const micros = (m: Measurement | undefined) => {
  const value = cpuMicrosPerMessage(m);
  return Number.isFinite(value) ? `${value.toFixed(0)} µs` : '—';
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Stream figures as × RabbitMQ (same window or prefetch), × raw commits and × pg-boss. */
function streamLines(results: BenchResults): string[] {
  const stream = results.stream;
  if (!stream) return ['MINIQUEUE over the stream: not run (BENCH_PHASES)'];
  const raw = results.references.raw_insert?.rate;
  const rows = stream.workloads.map((m) => {
    const rabbitId = RABBIT_COUNTERPART[m.id];
    const rabbit = rabbitId ? findRabbit(results, rabbitId) : undefined;
    const boss = STREAM_PGBOSS_COUNTERPART[m.id];
    const perFrame = m.extra.wsMessagesOut ? (m.requests / m.extra.wsMessagesOut).toFixed(1) : '—';
    return [
      m.label,
      int(m.rate),
      rabbit ? times(ratio(m.rate, rabbit.rate)) : '—',
      times(ratio(m.rate, raw)),
      boss ? `${times(ratio(m.rate, results.references[boss.id]?.rate))} ${boss.label}` : '—',
      walCell(m),
      micros(m),
      perFrame,
      others(m),
      waits(m),
    ];
  });
  const lines = [
    `MINIQUEUE over the stream (/ws/v1/stream from this process, bench client on ws, 127.0.0.1; RabbitMQ: ${results.rabbitmq.status}${results.rabbitmq.version ? ` ${results.rabbitmq.version}` : ''})`,
    ...table(
      [
        'workload',
        'msgs/s',
        '× RabbitMQ',
        '× raw',
        '× pg-boss',
        'WAL B/msg (FPI)',
        'CPU/msg',
        'frames/ws msg',
        'other cores',
        'top wait events (share of active backends)',
      ],
      rows,
    ),
    '× RabbitMQ: over the RabbitMQ row with the same window / prefetch / consumers, measured below in this run.',
    'CPU/msg: broker CPU (user+system) per message.  frames/ws msg: client frames per WebSocket message it sent (frames of one turn go as one array).',
    'Retention 24 h: an ack keeps the row as history (the default); retention 0: the ack deletes it, as RabbitMQ forgets an acked message.',
  ];
  const l = stream.latency;
  const two = stream.latencyTwoBrokers;
  if (l || two || stream.sdkLatencies.length > 0) {
    const rate = (l ?? two ?? stream.sdkLatencies[0]).rate;
    const cores = (r: typeof l) => (r?.brokerCores == null ? '—' : `${r.brokerCores.toFixed(2)} cores`);
    lines.push('', `STREAM PUBLISH → DELIVERY at a steady ${int(rate)} msgs/s (subscriber on one stream, publisher on another)`);
    if (l) lines.push(`  ${latencyLine('MiniQueue', l.latency)}   broker ${cores(l)}`);
    if (two) lines.push(`  ${latencyLine('MiniQueue, publisher on broker A, subscriber on broker B', two.latency)}   both brokers ${cores(two)}`);
    if (results.rabbitmq.latency) lines.push(`  ${latencyLine('RabbitMQ ', results.rabbitmq.latency)}`);
    for (const sdk of stream.sdkLatencies) lines.push(`  ${latencyLine(sdk.label, sdk.latency)}   broker ${cores(sdk)}`);
  }
  if (stream.idle) {
    const i = stream.idle;
    lines.push('', `IDLE STREAMS: ${int(i.opened)} subscribed streams (prefetch 10, empty queue), opened in ${i.openSeconds.toFixed(1)} s`);
    lines.push(
      `  broker RSS ${mb(i.rssNone)} with none, ${mb(i.rssOpen)} with all open: +${mb(i.rssOpen - i.rssNone)} (${int((i.rssOpen - i.rssNone) / i.opened / 1024)} KiB each); ` +
        `CPU while idle ${((i.idleCpuSeconds / i.idleSeconds) * 100).toFixed(1)}% of a core`,
    );
  }
  if (stream.stoppedReader) {
    const r = stream.stoppedReader;
    lines.push(
      '',
      `STOPPED READER: ${r.subscriptions} subscriptions × prefetch ${int(r.prefetch)} on one stream, its TCP socket paused ${r.stallSeconds} s while ${int(r.waiting)} messages wait`,
    );
    lines.push(
      `  broker RSS ${mb(r.rssBefore)} before, peak ${mb(r.rssPeak)} while stopped: +${mb(r.rssPeak - r.rssBefore)}; ` +
        `held for it up to ${int(r.unackedPeak)} (${int(r.unackedAtEnd)} at the end), read ${int(r.deliveredBefore)} before / ${int(r.deliveredAfter)} after the pause; ` +
        `${r.closedByBroker ? `closed by the broker (${r.closeCode === 1006 ? '1006: without a close frame, as missed heartbeats end it' : r.closeCode})` : 'still open'} at the end`,
    );
  }
  return lines;
}

function rabbitLines(results: BenchResults): string[] {
  const r = results.rabbitmq;
  if (r.workloads.length === 0) return [`RABBITMQ: ${r.status}`];
  const raw = results.references.raw_insert?.rate;
  const rows = r.workloads.map((m) => [m.label, int(m.rate), times(ratio(m.rate, raw)), micros(m), others(m)]);
  return [
    `RABBITMQ ${r.version ?? ''} (its own node in a temp dir on 127.0.0.1, amqplib from this process; durable queues, persistent messages; ${r.status})`,
    ...table(['workload', 'msgs/s', '× raw', 'CPU/msg', 'other cores'], rows),
    ...(r.latency ? [`  ${latencyLine('publish → delivery at the stream latency rate', r.latency)}`] : []),
    `  node: peak RSS ${mib(r.peakRssBytes)}, CPU ${r.cpuSeconds === null ? '—' : `${r.cpuSeconds.toFixed(1)} s`}`,
  ];
}

/** WAL per message by resource manager: Heap is table rows, Btree index entries, Transaction commits. */
function walLines(results: BenchResults): string[] {
  const measured = [...(Object.values(results.references) as Measurement[]), ...results.workloads, ...(results.stream?.workloads ?? [])].filter(
    (m) => m.wal && m.messages > 0,
  );
  if (measured.length === 0) return ['WAL BY KIND: not available (pg_walinspect needs PostgreSQL 15+ and superuser or pg_read_server_files)'];
  const kind = (m: Measurement, names: string[]) => m.wal!.byKind.filter((k) => names.includes(k.kind)).reduce((sum, k) => sum + k.bytes, 0);
  const main = ['Heap', 'Heap2', 'Btree', 'Transaction'];
  const rows = measured.map((m) => {
    const per = (bytes: number) => int(bytes / m.messages);
    const other = m.wal!.byKind.filter((k) => !main.includes(k.kind)).reduce((sum, k) => sum + k.bytes, 0);
    return [
      m.label,
      per(m.wal!.recordBytes),
      per(m.wal!.fpiBytes),
      per(kind(m, ['Heap', 'Heap2'])),
      per(kind(m, ['Btree'])),
      per(kind(m, ['Transaction'])),
      per(other),
    ];
  });
  return [
    'WAL BY KIND (bytes per message; records and full-page images, then by resource manager incl. images)',
    ...table(['workload', 'records', 'images', 'Heap', 'Btree', 'Transaction', 'other'], rows),
  ];
}

function extras(results: BenchResults): string[] {
  const lines: string[] = [];
  for (const id of ['fan_out', 'fan_out_20', 'fan_out_20_filtered']) {
    const fanOut = find(results, id);
    if (!fanOut) continue;
    lines.push(
      `${fanOut.label}: ${int(fanOut.messages)} messages published, ${int(fanOut.extra.copies)} copies stored (${int(fanOut.extra.copies / fanOut.seconds)} copies/s)`,
    );
  }
  const monitor = find(results, 'consume_ack_monitor');
  if (monitor) lines.push(`monitor socket: ${int(monitor.extra.frames)} frames, ${int(monitor.extra.bytes)} bytes received during the workload`);
  const s = results.seeding;
  if (s.pendingSeconds !== null)
    lines.push(`seeding: ${int(s.pendingMessages)} pending in ${s.pendingSeconds.toFixed(0)} s (batch publish, 500 per request, 4 at once)`);
  if (s.historySeconds !== null)
    lines.push(
      `seeding: ${int(s.historyMessages)} acked history in ${s.historySeconds.toFixed(0)} s (batch publish + receive 100 / batch ack, in chunks of 50,000)`,
    );
  return lines;
}

/** The fairness phase's latency workloads: a quiet key's publish → delivery, idle and beside a noisy key's backlog. */
function fairLines(results: BenchResults): string[] {
  const rows = [FAIR_LATENCY_IDS.idle, FAIR_LATENCY_IDS.noisy].flatMap((id) => {
    const m = find(results, id);
    if (!m) return [];
    const l: Latency = { samples: m.extra.probes, p50: m.extra.p50Ms, p99: m.extra.p99Ms, max: m.extra.maxMs };
    const others = m.extra.others ? `; ${int(m.extra.others)} of the noisy key delivered meanwhile, ${int(m.extra.noisyPending)} still pending` : '';
    return [`  ${latencyLine(m.label, l)}${others}`];
  });
  return rows.length ? ['', "FAIR SHARING, a quiet key's publish sent → a consumer's answer with it", ...rows] : [];
}

const latencyLine = (label: string, l: Latency) => `${label} (${l.samples} samples): p50 ${ms(l.p50)}   p99 ${ms(l.p99)}   max ${ms(l.max)}`;

export function targetLine(target: Target): string {
  const value = !Number.isFinite(target.measured)
    ? '—'
    : target.unit === '×'
      ? times(target.measured)
      : `${target.measured.toFixed(target.unit === 'ms' ? 2 : target.unit === 'MiB' ? 0 : 1)} ${target.unit}`;
  const verdict = target.met === null ? 'n/a    ' : target.met ? 'met    ' : 'NOT MET';
  return `  ${verdict}  ${value.padStart(10)}   ${target.description}`;
}

/** Other work on the machine takes cores from the run: say so where the figures are read. */
function busyWarning(results: BenchResults): string[] {
  const lines: string[] = [];
  const load = results.machine.loadAtStart[0];
  if (load > results.machine.cores * 0.5) {
    lines.push(`  WARNING: the machine was busy before the run started (1-minute load ${load.toFixed(2)} on ${results.machine.cores} cores)`);
  }
  const all = [
    ...(Object.values(results.references) as Measurement[]),
    ...results.workloads,
    ...(results.stream?.workloads ?? []),
    ...results.rabbitmq.workloads,
  ];
  const disturbed = all.filter((m) => (m.otherCores ?? 0) > DISTURBED);
  if (disturbed.length > 0) {
    lines.push(
      `  WARNING: other processes used more than ${DISTURBED} cores during ${disturbed.length} of ${all.length} workloads (marked '!'): those figures are low and noisy`,
    );
  }
  return lines;
}

export function renderReport(results: BenchResults): string {
  const m = results.machine;
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const settings = Object.entries(results.postgres.settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  const met = results.targets.filter((t) => t.met === true).length;
  const measured = results.targets.filter((t) => t.met !== null).length;
  return [
    `MiniQueue benchmark${results.quick ? ' (BENCH_QUICK: tiny counts, the figures mean nothing)' : ''}`,
    '',
    'MACHINE',
    `  cpu:        ${m.cores} cores, ${m.cpuModel}; ${m.memoryGiB.toFixed(1)} GiB; ${m.os}`,
    `  load:       ${load(m.loadAtStart)} at the start, ${load(m.loadAtEnd)} at the end (1/5/15-minute averages)`,
    ...busyWarning(results),
    `  node:       ${m.node}`,
    `  postgresql: ${results.postgres.version}${results.postgres.embedded ? ' (embedded, its own process)' : ' (BENCH_DATABASE_URL)'}`,
    `              ${settings}`,
    `  broker:     commit ${results.commit}, compiled JavaScript (api/dist/start.js) in its own process`,
    `  run:        ${results.startedAt} → ${results.finishedAt}; phases: ${results.phases.join(', ')}`,
    '',
    ...referenceLines(results),
    '',
    ...workloadLines(results),
    '',
    ...streamLines(results),
    '',
    ...rabbitLines(results),
    '',
    ...walLines(results),
    '',
    ...extras(results),
    '',
    'LONG-POLL WAKE-UP, publish sent → waiting consumer answered',
    ...(results.wakeUp
      ? [
          `  ${latencyLine('same instance', results.wakeUp.sameInstance)}`,
          `  ${latencyLine('across instances (consumer on B, publish on A)', results.wakeUp.crossInstance)}`,
        ]
      : ['  not run (BENCH_PHASES)']),
    ...fairLines(results),
    '',
    'BROKER PROCESSES (peak RSS = VmHWM at the end)',
    ...results.brokers.map((b) => `  ${b.name.padEnd(10)} peak RSS ${mib(b.peakRssBytes).padStart(8)}   CPU ${b.cpuSeconds.toFixed(1)} s`),
    '',
    'TARGETS (the performance goals MiniQueue holds itself to)',
    ...results.targets.map(targetLine),
    `  ${met} of ${measured} measured targets met${measured < results.targets.length ? ` (${results.targets.length - measured} not measured)` : ''}`,
  ].join('\n');
}
