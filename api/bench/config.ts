/**
 * Every knob of the benchmark, read once from the environment. Each workload is bounded both by
 * a count and by a time, so a slow broker still finishes in minutes and a fast one is not
 * measured on a handful of requests. BENCH_QUICK=1 shrinks everything so the whole run takes
 * well under a minute (for the test that keeps the bench from rotting; its figures mean nothing).
 */
export interface Bound {
  /** Most units (messages, batches) the workload starts. */
  count: number;
  /** Most seconds it runs. */
  seconds: number;
}

export const PHASES = ['references', 'main', 'stream', 'rabbitmq', 'pending', 'history', 'bounded', 'expiry', 'priorities', 'fairness'] as const;
export type Phase = (typeof PHASES)[number];

export interface BenchConfig {
  quick: boolean;
  /** Which parts run (BENCH_PHASES=main,pending ...; all by default). Targets of a skipped part read n/a. */
  phases: Phase[];
  /** An existing PostgreSQL server to use instead of a fresh embedded one. */
  databaseUrl?: string;
  /** Where the JSON and text reports go. */
  outputDir: string;
  /** Directory for `node --cpu-prof` profiles of every broker process, if set. */
  cpuProfDir?: string;
  /** Skip `npm run build -w @miniqueue/api` (dist is already fresh). */
  skipBuild: boolean;
  /** Requests in flight for the MiniQueue HTTP workloads. */
  concurrency: number;
  /** Connections / callers for the raw PostgreSQL and pg-boss references (16, as PostgreSQL's own benchmark ceilings are usually quoted). */
  referenceConnections: number;
  warmup: number;
  publishSingle: Bound;
  /** In batches of `batchSize`. */
  publishBatch: Bound;
  batchSize: number;
  fanOut: Bound;
  fanOutQueues: number;
  consumeAck: Bound;
  /** In messages; received `receiveSize` at a time. */
  receiveAck: Bound;
  receiveSize: number;
  /** Each of `monitorRounds` rounds runs the workload once without and once with a monitor socket. */
  monitor: Bound;
  monitorRounds: number;
  /** Messages in the backlog / the acked history for the "big" comparisons (BENCH_BIG). */
  big: number;
  /** The consume + ack measurement before and after seeding the big backlog or history. */
  bigConsume: Bound;
  wakeSamples: number;
  /** How long the consumer's long poll is given to be surely waiting before the publish. */
  wakeSettleMs: number;
  rawSeconds: number;
  pgBossSend: Bound;
  /** In batches of `batchSize`. */
  pgBossInsert: Bound;
  pgBossFetch: Bound;
  /** Jobs kept queued for the short-queue pg-boss fetch reference. */
  pgBossShortQueue: number;
  /** Milliseconds between wait-event samples. */
  sampleEveryMs: number;
  /**
   * BENCH_ONLY: the ids (as in the JSON) of the only reference, stream and RabbitMQ workloads to
   * run; the HTTP phases (main, pending, history) then run only if BENCH_PHASES names them.
   * null: everything.
   */
  only: string[] | null;
  /** Stream publish with 1 in flight, and with `streamWindow` in flight (the same bounds for RabbitMQ's confirms). */
  streamPublish1: Bound;
  streamPublish: Bound;
  streamWindow: number;
  streamFanOut: Bound;
  /** Stream consume + ack (and RabbitMQ's): the queue starts with `count` messages. */
  streamConsume: Bound;
  /** Consumers (streams; RabbitMQ connections) of the consume + ack workloads. */
  streamConsumers: number;
  /** Prefetch windows of the consume + ack workloads. */
  streamPrefetches: number[];
  latencyRate: number;
  latencySeconds: number;
  latencyWarmupSeconds: number;
  /** Idle subscribed streams opened at once (BENCH_IDLE_STREAMS). */
  idleStreams: number;
  /** Seconds the idle streams are watched for the broker's CPU. */
  idleSeconds: number;
  /** Messages waiting for the subscriber that stops reading (BENCH_STALLED_MESSAGES), and how long it stops (BENCH_STALL_SECONDS). */
  stalledMessages: number;
  stallSeconds: number;
  /** Milliseconds to let the broker settle before an RSS reading. */
  rssSettleMs: number;
  /** RabbitMQ: 'auto' (measured when installed, not in quick mode), 'on' (BENCH_RABBITMQ=1, quick too), 'off' (BENCH_RABBITMQ=0). */
  rabbitmq: 'auto' | 'on' | 'off';
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got ${raw}`);
  return value;
}

function phases(raw: string | undefined, only: string[] | null): Phase[] {
  if (!raw) return only ? ['references', 'stream', 'rabbitmq'] : [...PHASES];
  const chosen = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of chosen) {
    if (!(PHASES as readonly string[]).includes(name)) throw new Error(`BENCH_PHASES: unknown phase ${name} (known: ${PHASES.join(', ')})`);
  }
  return PHASES.filter((phase) => chosen.includes(phase));
}

export function loadBenchConfig(env: NodeJS.ProcessEnv = process.env, repoRoot: string): BenchConfig {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const only = env.BENCH_ONLY
    ? env.BENCH_ONLY.split(',')
        .map((id) => id.trim())
        .filter(Boolean)
    : null;
  const rabbitSetting = env.BENCH_RABBITMQ ?? '';
  if (!['', '0', '1'].includes(rabbitSetting)) throw new Error(`BENCH_RABBITMQ must be 0 or 1, got ${rabbitSetting}`);
  const common = {
    quick,
    only,
    rabbitmq: rabbitSetting === '1' ? ('on' as const) : rabbitSetting === '0' ? ('off' as const) : ('auto' as const),
    phases: phases(env.BENCH_PHASES, only),
    databaseUrl: env.BENCH_DATABASE_URL || undefined,
    outputDir: env.BENCH_OUTPUT_DIR || `${repoRoot}/artifacts/bench`,
    cpuProfDir: env.BENCH_CPU_PROF || undefined,
    skipBuild: env.BENCH_SKIP_BUILD === '1',
    concurrency: positiveInt(env, 'BENCH_CONCURRENCY', 32),
    referenceConnections: 16,
    batchSize: 100,
    fanOutQueues: 4,
    receiveSize: 100,
    wakeSettleMs: 20,
    sampleEveryMs: 20,
    streamWindow: 256,
    streamConsumers: positiveInt(env, 'BENCH_STREAM_CONSUMERS', 10),
    streamPrefetches: [10, 100],
    latencyRate: positiveInt(env, 'BENCH_LATENCY_RATE', 1_000),
  };
  if (quick) {
    return {
      ...common,
      warmup: 50,
      publishSingle: { count: 300, seconds: 0.5 },
      publishBatch: { count: 20, seconds: 0.5 },
      fanOut: { count: 200, seconds: 0.5 },
      consumeAck: { count: 300, seconds: 0.5 },
      receiveAck: { count: 2_000, seconds: 0.5 },
      monitor: { count: 200, seconds: 0.5 },
      monitorRounds: 1,
      big: positiveInt(env, 'BENCH_BIG', 2_000),
      bigConsume: { count: 300, seconds: 0.5 },
      wakeSamples: positiveInt(env, 'BENCH_WAKE_SAMPLES', 10),
      rawSeconds: 0.5,
      pgBossSend: { count: 300, seconds: 0.5 },
      pgBossInsert: { count: 20, seconds: 0.5 },
      pgBossFetch: { count: 300, seconds: 0.5 },
      pgBossShortQueue: 100,
      streamPublish1: { count: 100, seconds: 0.5 },
      streamPublish: { count: 500, seconds: 0.5 },
      streamFanOut: { count: 300, seconds: 0.5 },
      streamConsume: { count: 400, seconds: 2 },
      latencySeconds: 1,
      latencyWarmupSeconds: 0.2,
      idleStreams: positiveInt(env, 'BENCH_IDLE_STREAMS', 50),
      idleSeconds: 0.5,
      stalledMessages: positiveInt(env, 'BENCH_STALLED_MESSAGES', 2_000),
      stallSeconds: positiveInt(env, 'BENCH_STALL_SECONDS', 2),
      rssSettleMs: 300,
    };
  }
  return {
    ...common,
    warmup: 500,
    publishSingle: { count: 30_000, seconds: 12 },
    publishBatch: { count: 1_000, seconds: 10 },
    fanOut: { count: 20_000, seconds: 10 },
    consumeAck: { count: 30_000, seconds: 12 },
    receiveAck: { count: 150_000, seconds: 10 },
    monitor: { count: 15_000, seconds: 6 },
    monitorRounds: 2,
    big: positiveInt(env, 'BENCH_BIG', 1_000_000),
    bigConsume: { count: 20_000, seconds: 10 },
    wakeSamples: positiveInt(env, 'BENCH_WAKE_SAMPLES', 200),
    rawSeconds: 10,
    pgBossSend: { count: 100_000, seconds: 10 },
    pgBossInsert: { count: 2_000, seconds: 10 },
    pgBossFetch: { count: 50_000, seconds: 10 },
    pgBossShortQueue: 1_000,
    streamPublish1: { count: 10_000, seconds: 8 },
    streamPublish: { count: 100_000, seconds: 10 },
    streamFanOut: { count: 40_000, seconds: 10 },
    streamConsume: { count: 60_000, seconds: 10 },
    latencySeconds: 10,
    latencyWarmupSeconds: 1,
    idleStreams: positiveInt(env, 'BENCH_IDLE_STREAMS', 1_000),
    idleSeconds: 5,
    stalledMessages: positiveInt(env, 'BENCH_STALLED_MESSAGES', 100_000),
    stallSeconds: positiveInt(env, 'BENCH_STALL_SECONDS', 60),
    rssSettleMs: 2_000,
  };
}

/** Whether BENCH_ONLY lets the workload (or reference) `id` run. */
export function wants(config: Pick<BenchConfig, 'only'>, id: string): boolean {
  return config.only === null || config.only.includes(id);
}
