import type pg from 'pg';
import * as current from './hotPathStatements.js';
import { prepare, round, stats } from './hotPathRounds.js';
import { startServer } from './postgres.js';

/**
 * What listing a queue in publish order (migration 0018: one index per table along queue_name,
 * published_at, seq) costs the hot statements: one publish, then one claim + one ack keeping the
 * acked message (acked retention 24 h, so the ack writes message_acked and its index), on one
 * connection, timed one by one, in alternating rounds of
 *   indexed    this version's schema;
 *   unindexed  the same, with the three publish-time indexes dropped.
 * Beside the times, the WAL each round wrote per message (the rounds run one after another on one
 * server, so the WAL written during a round is that round's).
 *   npx tsx bench/publishTimeIndexes.ts [messages per round] [rounds]
 */
const PER_ROUND = Number(process.argv[2] ?? 400);
const ROUNDS = Number(process.argv[3] ?? 6);
const ACKED_RETENTION_HOURS = 24;
const DROP_PUBLISH_TIME_INDEXES = 'DROP INDEX message_published_idx, message_dead_published_idx, message_acked_published_idx;';
const log = (line: string) => process.stdout.write(`${line}\n`);

const walPosition = async (db: pg.Client) => (await db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
const walSince = async (db: pg.Client, lsn: string) =>
  Number((await db.query<{ bytes: string }>('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::bigint AS bytes', [lsn])).rows[0].bytes);

async function main(): Promise<void> {
  const server = await startServer(process.env.BENCH_DATABASE_URL, log);
  try {
    const variants = {
      indexed: await prepare(await server.createDatabase('indexed')),
      unindexed: await prepare(await server.createDatabase('unindexed'), DROP_PUBLISH_TIME_INDEXES),
    };
    const results = Object.fromEntries(Object.keys(variants).map((name) => [name, { publish: [] as number[], settle: [] as number[], wal: [] as number[] }]));
    log(
      `# ${ROUNDS} rounds of ${PER_ROUND} publishes and ${PER_ROUND} claim + ack (acked retention ${ACKED_RETENTION_HOURS} h), alternating (${server.facts.version})`,
    );
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, client] of Object.entries(variants)) {
        const before = await walPosition(client);
        const { publish, settle } = await round(client, current, PER_ROUND, ACKED_RETENTION_HOURS);
        const walPerMessage = (await walSince(client, before)) / PER_ROUND;
        if (r > 0) {
          // The first round warms caches and plans.
          results[name].publish.push(...publish);
          results[name].settle.push(...settle);
          results[name].wal.push(walPerMessage);
        }
      }
    }
    for (const [name, { publish, settle, wal }] of Object.entries(results)) {
      const walMean = Math.round(wal.reduce((sum, bytes) => sum + bytes, 0) / wal.length);
      log(`${name.padEnd(10)} publish: ${stats(publish)}; claim + ack: ${stats(settle)}; WAL ${walMean} bytes per message`);
    }
    for (const client of Object.values(variants)) await client.end();
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
