import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildBroker, newAdminKey, REPO_ROOT } from './broker.js';
import { loadBenchConfig, type Phase } from './config.js';
import { runHistoryPhase, runPendingPhase } from './phases/big.js';
import { runMainPhase } from './phases/main.js';
import { runGatesPhase, runsGates } from './phases/gates.js';
import { runRabbitPhase } from './phases/rabbitmq.js';
import { runStreamPhase } from './phases/stream.js';
import { runReferences } from './phases/references.js';
import { runBoundedPhase } from './phases/bounded.js';
import { runExpiryPhase } from './phases/expiry.js';
import { runPrioritiesPhase } from './phases/priorities.js';
import { runFairnessPhase } from './phases/fairness.js';
import { startServer } from './postgres.js';
import { renderReport } from './report.js';
import type { BenchResults } from './results.js';
import type { RunContext } from './session.js';
import { evaluateTargets } from './targets.js';

/**
 * `npm run bench`: MiniQueue beside the raw PostgreSQL ceiling and pg-boss, in one run on one
 * PostgreSQL server, and its streams beside RabbitMQ (when installed). This process is the load generator; every broker is a separate process
 * running the compiled JavaScript, driven only through its HTTP API. Progress goes to stderr,
 * the report to stdout and to artifacts/bench/<timestamp>.{json,txt}.
 */

const log = (line: string) => process.stderr.write(`${line}\n`);

function commitOf(): string {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=12'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export async function runBench(env: NodeJS.ProcessEnv = process.env): Promise<{ results: BenchResults; text: string; files: string[] }> {
  const config = loadBenchConfig(env, REPO_ROOT);
  const startedAt = new Date();
  const loadAtStart = os.loadavg();
  if (!config.skipBuild) buildBroker(log);
  const server = await startServer(config.databaseUrl, log);
  log(`PostgreSQL: ${server.facts.version}`);
  log(
    `  ${Object.entries(server.facts.settings)
      .map(([name, value]) => `${name}=${value}`)
      .join(', ')}`,
  );
  const context: RunContext = { config, serverUrl: server.url, adminKey: newAdminKey(), log, brokers: [] };
  try {
    const runs = (phase: Phase) => config.phases.includes(phase);
    const mainDatabase = await server.createDatabase('main');
    const references = runs('references') ? await runReferences(context, mainDatabase) : {};
    const main = runs('main') ? await runMainPhase(context, mainDatabase) : { workloads: [], wakeUp: null };
    const gates = runsGates(config) ? await runGatesPhase(context, await server.createDatabase('gates')) : [];
    const stream = runs('stream')
      ? await runStreamPhase(context, {
          main: () => server.createDatabase('stream'),
          retentionZero: () => server.createDatabase('stream_r0'),
          memory: () => server.createDatabase('stream_mem'),
        })
      : null;
    // RabbitMQ decides itself whether it runs (installed, quick mode, BENCH_RABBITMQ), and says why not.
    const rabbitmq = await runRabbitPhase(context);
    const pending = runs('pending') ? await runPendingPhase(context, await server.createDatabase('pending')) : null;
    const history = runs('history') ? await runHistoryPhase(context, await server.createDatabase('history')) : null;
    const bounded = runs('bounded') ? await runBoundedPhase(context, await server.createDatabase('bounded')) : [];
    const expiry = runs('expiry') ? await runExpiryPhase(context, await server.createDatabase('expiry')) : [];
    const priorities = runs('priorities') ? await runPrioritiesPhase(context, await server.createDatabase('priorities')) : [];
    const fairness = runs('fairness') ? await runFairnessPhase(context, await server.createDatabase('fairness')) : [];

    const cpus = os.cpus();
    const partial: Omit<BenchResults, 'targets'> = {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      quick: config.quick,
      commit: commitOf(),
      machine: {
        cores: cpus.length,
        cpuModel: cpus[0]?.model.trim() ?? 'unknown',
        memoryGiB: os.totalmem() / 2 ** 30,
        os: `${os.type()} ${os.release()} (${os.arch()})`,
        node: process.version,
        loadAtStart,
        loadAtEnd: os.loadavg(),
      },
      postgres: { ...server.facts, embedded: server.embedded },
      concurrency: config.concurrency,
      referenceConnections: config.referenceConnections,
      config: { ...config, databaseUrl: undefined } as Omit<typeof config, 'databaseUrl'>,
      phases: config.phases,
      references,
      workloads: [
        ...main.workloads,
        ...gates,
        ...(pending ? [pending.empty, pending.big] : []),
        ...(history ? [history.empty, history.big] : []),
        ...bounded,
        ...expiry,
        ...priorities,
        ...fairness,
      ],
      seeding: {
        pendingMessages: config.big,
        pendingSeconds: pending?.seedSeconds ?? null,
        historyMessages: config.big,
        historySeconds: history?.seedSeconds ?? null,
      },
      wakeUp: main.wakeUp,
      stream,
      rabbitmq,
      brokers: context.brokers,
    };
    const results: BenchResults = { ...partial, targets: evaluateTargets(partial) };
    const text = renderReport(results);

    await mkdir(config.outputDir, { recursive: true });
    const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
    const files = [path.join(config.outputDir, `${stamp}.json`), path.join(config.outputDir, `${stamp}.txt`)];
    await writeFile(files[0], `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(files[1], `${text}\n`);
    return { results, text, files };
  } finally {
    await server.stop();
  }
}

// Run when started as a script (npm run bench), not when imported.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runBench()
    .then(({ text, files }) => {
      process.stdout.write(`\n${text}\n\n`);
      log(`written: ${files.join(', ')}`);
    })
    .catch((error) => {
      console.error('benchmark failed:', error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    });
}
