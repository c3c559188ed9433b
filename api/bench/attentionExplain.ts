import { migrate } from '../src/db/migrate.js';
import { queueActivity, ratesFlush } from '../src/db/queries/rates.js';
import { BUCKET_MS, bucketOf } from '../src/stats/rateCounter.js';
import { explaining, summary } from './explain.js';
import { startServer, withClient } from './postgres.js';
import { BUSY_DAY, seedRateHistory } from './rateHistory.js';

/**
 * What the attention flags cost the broker, for 50 queues with a day of history and 2,000 messages
 * pending in each (100,000):
 *   npx tsx bench/attentionExplain.ts        (BENCH_DATABASE_URL: a server of your own)
 * - the depth sample with each queue's oldest pending age (ratesFlush of the sampling instance),
 *   and the time of the age probes alone (the SubPlan on message_claim_idx, one per queue);
 * - GET /dashboard/queues' activity statement (queueActivity), a day's average age included.
 * Each three times under EXPLAIN (ANALYZE, BUFFERS), the first warming the cache.
 */
const log = (line: string) => process.stdout.write(`${line}\n`);
const PENDING_PER_QUEUE = 2_000;

async function main(): Promise<void> {
  const server = await startServer(process.env.BENCH_DATABASE_URL, log);
  try {
    const url = await server.createDatabase('attention');
    await migrate(url);
    await withClient(url, async (client) => {
      await client.query('SET jit = off');
      const { rows } = await seedRateHistory(client, BUSY_DAY);
      // Every sample of the day 30 s old, as the rate recorder would have added it up.
      await client.query(`UPDATE queue_rate_minute SET oldest_age_total = 12 * 30`);
      await client.query(`INSERT INTO queue_oldest_age_hour (queue_name, hour, total)
                          SELECT queue_name, date_bin('1 hour', minute, 'epoch'), sum(oldest_age_total) FROM queue_rate_minute GROUP BY 1, 2`);
      // Made over a day ago, so each queue's average spans the day.
      await client.query(`UPDATE queue SET created_at = now() - interval '2 days'`);
      await client.query(
        `WITH added AS (
           INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
           SELECT gen_random_uuid(), q.name, q.topic_name, '{}', '{}', 'PENDING', t, t
             FROM queue q, generate_series(1, $1::int) AS n, LATERAL (SELECT now() - interval '1 hour' + n * interval '1 ms' AS t) AS at
           RETURNING queue_name)
         UPDATE queue_counter k SET pending = a.n FROM (SELECT queue_name, count(*) AS n FROM added GROUP BY 1) a
          WHERE k.queue_name = a.queue_name AND k.shard = 0`,
        [PENDING_PER_QUEUE],
      );
      await client.query('ANALYZE message; ANALYZE queue_counter; ANALYZE queue_rate_minute');
      log(`# ${rows.toLocaleString('en-US')} queue_rate rows, ${(50 * PENDING_PER_QUEUE).toLocaleString('en-US')} pending (${server.facts.version})`);
      for (let run = 0; run < 3; run++) {
        const plans: string[][] = [];
        // A bucket of its own each run, in the future, so each run takes the sample.
        await ratesFlush(explaining(client, plans), { queues: [], topics: [], pollers: [] }, bucketOf(Date.now()) + (run + 1) * BUCKET_MS);
        const probes = plans[0].find((line) => /SubPlan|Index Scan using message_claim_idx/.test(line) && /actual time/.test(line));
        log(`depth + oldest sample run ${run + 1}: ${summary(plans[0])}; age probe: ${probes?.trim() ?? 'not found'}`);
        if (process.env.PLANS && run === 2) log(plans[0].join('\n'));
      }
      for (let run = 0; run < 3; run++) {
        const plans: string[][] = [];
        await queueActivity(explaining(client, plans), bucketOf(Date.now()));
        log(`queue activity run ${run + 1}: ${summary(plans[0])}`);
        if (process.env.PLANS && run === 2) log(plans[0].join('\n'));
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
