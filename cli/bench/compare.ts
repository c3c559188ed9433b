/**
 * `miniqueue bench` beside `npm run bench` for the same two workloads, on one broker in one run:
 * publish 1 message per request, and consume + ack, 32 in flight each. `npm run bench`'s own
 * workload functions (`@miniqueue/api/bench`: api/bench/scenarios/throughput.ts, over its node:http client) drive the
 * broker from this process; `miniqueue bench --json` runs as a child process against the same
 * broker. Rounds alternate the two so that drift in the machine's speed falls on both; each
 * rate is the median of the rounds, and the ratio, CLI over `npm run bench`, the median of the
 * rounds' own ratios.
 *
 *   npm run bench:compare -w @miniqueue/cli                                  # the CLI of this checkout
 *   npm run bench:compare -w @miniqueue/cli -- --bin "$(command -v miniqueue)"   # an installed CLI
 *   BENCH_QUICK=1 npm run bench:compare -w @miniqueue/cli                    # tiny counts, a smoke run
 *
 * Like `npm run bench` it builds the broker (BENCH_SKIP_BUILD=1 skips it), starts an embedded
 * PostgreSQL in a temp dir (or uses BENCH_DATABASE_URL) and the broker as a process of its own
 * with rate limiting off, and takes its counts, durations and concurrency from api/bench/config.ts.
 * Not a test: the figures depend on the machine.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  BenchClient,
  buildBroker,
  consumeAck,
  createKeys,
  createTopic,
  loadBenchConfig,
  newAdminKey,
  PAYLOAD,
  publishSingle,
  purge,
  REPO_ROOT,
  seed,
  startBroker,
  startServer,
  type LoadResult,
} from '@miniqueue/api/bench';

const log = (line: string) => process.stderr.write(`${line}\n`);

const { values } = parseArgs({
  options: {
    bin: { type: 'string', default: path.join(import.meta.dirname, '..', 'bin', 'run.js') },
    rounds: { type: 'string', default: '3' },
    // Seconds per workload and round; default that of `npm run bench` (api/bench/config.ts).
    seconds: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const bin = path.resolve(values.bin);
const rounds = Number(values.rounds);
const config = loadBenchConfig(process.env, REPO_ROOT);
const concurrency = config.concurrency;

interface CliReport {
  seconds: number;
  published: number;
  acked: number;
  published_per_second: number;
  acked_per_second: number;
  errors: { total: number; by_kind: Record<string, number> };
}

/** `miniqueue bench … --json` against the broker; its report. */
function miniqueueBench(url: string, adminKey: string, args: string[]): Promise<CliReport> {
  const command = bin.endsWith('.js') ? [process.execPath, bin] : [bin];
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], [...command.slice(1), 'bench', ...args, '--json'], {
      env: { ...process.env, MINIQUEUE_URL: url, MINIQUEUE_API_KEY: adminKey, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`miniqueue bench exited ${code}:\n${stderr}`));
      const report = JSON.parse(stdout) as CliReport;
      if (report.errors.total > 0) return reject(new Error(`miniqueue bench counted errors: ${JSON.stringify(report.errors)}`));
      resolve(report);
    });
  });
}

const rate = (result: LoadResult) => result.messages / result.seconds;
const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

const server = await startServer(config.databaseUrl, log);
const adminKey = newAdminKey();
try {
  if (!config.skipBuild) buildBroker(log);
  const broker = await startBroker({ name: 'compare', databaseUrl: await server.createDatabase('compare'), adminKey, log });
  const admin = new BenchClient(broker.url, adminKey, 4);
  try {
    await createTopic(admin, 'bench.single', ['bench-single']);
    const keys = await createKeys(admin);
    const publisher = new BenchClient(broker.url, keys.publish, concurrency);
    const consumer = new BenchClient(broker.url, keys.consume, concurrency);
    const seconds = values.seconds ? Number(values.seconds) : Math.max(1, Math.round(config.publishSingle.seconds));
    const publishBound = values.seconds ? { count: Number.MAX_SAFE_INTEGER, seconds } : config.publishSingle;
    const consumeBound = values.seconds ? { count: Number.MAX_SAFE_INTEGER, seconds } : config.consumeAck;
    // As many queued as both consumers can take in their time (a few thousand a second at most).
    const prefill = values.seconds ? Math.min(config.consumeAck.count, seconds * 3000) : config.consumeAck.count;
    const cli = (args: string[]) => miniqueueBench(broker.url, adminKey, ['--size', String(PAYLOAD.length), ...args]);

    log(`warming up (${config.warmup} of each, both clients)`);
    await publishSingle(publisher, 'bench.single', { count: config.warmup, seconds: 30 }, concurrency);
    await consumeAck(consumer, 'bench-single', { count: config.warmup, seconds: 30 }, concurrency);
    await purge(admin, 'bench-single');
    await cli(['--producers', String(concurrency), '--consumers', '0', '--duration', '1']);

    const figures = { publish: { npm: [] as number[], cli: [] as number[] }, consume: { npm: [] as number[], cli: [] as number[] } };
    for (let round = 1; round <= rounds; round += 1) {
      log(`round ${round}/${rounds}: publish, 1 per request, ${concurrency} in flight`);
      figures.publish.npm.push(rate(await publishSingle(publisher, 'bench.single', publishBound, concurrency)));
      await purge(admin, 'bench-single');
      figures.publish.cli.push((await cli(['--producers', String(concurrency), '--consumers', '0', '--duration', String(seconds)])).published_per_second);

      log(`round ${round}/${rounds}: consume + ack, ${concurrency} in flight, ${prefill} queued`);
      await seed(publisher, 'bench.single', prefill);
      figures.consume.npm.push(rate(await consumeAck(consumer, 'bench-single', consumeBound, concurrency)));
      await purge(admin, 'bench-single');
      figures.consume.cli.push(
        (await cli(['--producers', '0', '--consumers', String(concurrency), '--prefill', String(prefill), '--duration', String(seconds)])).acked_per_second,
      );
      log(
        `  npm run bench ${Math.round(figures.publish.npm.at(-1)!)} / ${Math.round(figures.consume.npm.at(-1)!)} msg/s, miniqueue bench ${figures.publish.cli.at(-1)} / ${figures.consume.cli.at(-1)} msg/s`,
      );
    }
    const summary = Object.fromEntries(
      Object.entries(figures).map(([workload, { npm, cli: ours }]) => {
        const npmRate = Math.round(median(npm));
        const cliRate = Math.round(median(ours));
        // Each round's two figures were taken minutes apart at most: their ratio is the fairer one.
        const ratio = median(ours.map((cliFigure, i) => cliFigure / npm[i]));
        return [
          workload,
          { npm_run_bench: npmRate, miniqueue_bench: cliRate, ratio: Math.round(ratio * 100) / 100, rounds: { npm: npm.map(Math.round), cli: ours } },
        ];
      }),
    );
    if (values.json) {
      console.log(JSON.stringify({ bin, concurrency, quick: config.quick, summary }, null, 2));
    } else {
      console.log(`miniqueue bench (${bin}) beside npm run bench, one broker, ${concurrency} in flight, median of ${rounds} rounds`);
      for (const [workload, figure] of Object.entries(summary)) {
        const label = workload === 'publish' ? 'publish, 1 per request' : 'consume + ack';
        console.log(
          `${label.padEnd(24)} npm run bench ${figure.npm_run_bench} msg/s, miniqueue bench ${figure.miniqueue_bench} msg/s; ratio ${figure.ratio} (median of the rounds' ratios)`,
        );
      }
    }
    for (const client of [publisher, consumer]) client.close();
  } finally {
    admin.close();
    await broker.stop();
  }
} finally {
  await server.stop();
}
