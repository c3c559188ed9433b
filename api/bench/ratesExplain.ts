import { migrate } from '../src/db/migrate.js';
import { rateSeries } from '../src/stats/rateSeries.js';
import { explaining, summary } from './explain.js';
import { startServer, withClient } from './postgres.js';
import { BUSY_DAY, seedRateHistory } from './rateHistory.js';

/**
 * What GET /dashboard/rates costs over a day of history for 50 queues (864,000 rate rows):
 *   npx tsx bench/ratesExplain.ts            (BENCH_DATABASE_URL: a server of your own)
 * Seeds the history, then runs the route's statements under EXPLAIN (ANALYZE, BUFFERS), each
 * case three times (the first warms the cache), and prints buffers and execution time.
 */
const log = (line: string) => process.stdout.write(`${line}\n`);
const CASES = [
  { label: 'day, all queues', query: { windowSeconds: 86_400, resolutionSeconds: 5 } },
  { label: 'day, one queue', query: { queue: 'hq07', windowSeconds: 86_400, resolutionSeconds: 5 } },
  { label: 'hour, all queues', query: { windowSeconds: 3_600, resolutionSeconds: 5 } },
  { label: 'hour, one queue', query: { queue: 'hq07', windowSeconds: 3_600, resolutionSeconds: 5 } },
];

async function main(): Promise<void> {
  const server = await startServer(process.env.BENCH_DATABASE_URL, log);
  try {
    const url = await server.createDatabase('rates');
    await migrate(url);
    await withClient(url, async (client) => {
      await client.query('SET jit = off');
      const seeding = performance.now();
      const { rows } = await seedRateHistory(client, BUSY_DAY);
      log(`# ${rows.toLocaleString('en-US')} queue_rate rows, seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${server.facts.version})`);
      for (const { label, query } of CASES) {
        for (let run = 0; run < 3; run++) {
          const plans: string[][] = [];
          await rateSeries(explaining(client, plans), query);
          log(`${label.padEnd(18)} run ${run + 1}: ${plans.map(summary).join(' | ')}`);
          if (process.env.PLANS && label.startsWith(process.env.PLANS) && run === 2) log(plans.at(-1)!.join('\n'));
        }
      }
    });
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
