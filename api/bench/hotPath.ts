import * as current from './hotPathStatements.js';
import { prepare, round, stats, type Statements } from './hotPathRounds.js';
import { startServer } from './postgres.js';

/**
 * What keeping the queue counters costs the hot statements: one publish (one message, one queue),
 * then one claim + one ack, on one connection, timed one by one, in alternating rounds of
 *   counted    this version's statements, which add to the counters in the same statement;
 *   uncounted  the statements of a version before the counters (BASE_QUERIES: a folder holding
 *              that version's src/db/queries/{messagePublish,messageClaim,messageSettle,messageRow,orderingGroup}.ts);
 *   trigger    those same uncounted statements, with statement-level triggers (transition tables)
 *              keeping the counters instead: the alternative to the counting CTE.
 *   BASE_QUERIES=/tmp/base/src/db/queries npx tsx bench/hotPath.ts [messages per round] [rounds]
 * Each variant has its own database on the same server, so that their rows and triggers stay apart.
 */
const PER_ROUND = Number(process.argv[2] ?? 400);
const ROUNDS = Number(process.argv[3] ?? 6);
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Statement-level triggers doing what the counting CTE does, for the comparison (one function per event). */
const NEW_ROWS = `SELECT n.queue_name, (n.status <> 'UNACKED')::int AS pending, (n.status = 'UNACKED')::int AS unacked, 0 AS acked FROM new_rows n`;
const OLD_ROWS = (acked: number) =>
  `SELECT o.queue_name, -(o.status <> 'UNACKED')::int AS pending, -(o.status = 'UNACKED')::int AS unacked, ${acked} AS acked FROM old_rows o`;
const counting = (name: string, rows: string) => `
  CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO queue_counter AS k (queue_name, shard, pending, unacked, acked)
    SELECT queue_name, pg_backend_pid() % 16, sum(pending), sum(unacked), sum(acked) FROM (${rows}) d
     GROUP BY queue_name ORDER BY queue_name
    ON CONFLICT (queue_name, shard) DO UPDATE
       SET pending = k.pending + EXCLUDED.pending, unacked = k.unacked + EXCLUDED.unacked, acked = k.acked + EXCLUDED.acked;
    RETURN NULL;
  END $$;`;
const TRIGGERS = `
  ${counting('bench_inserted', NEW_ROWS)}
  ${counting('bench_updated', `${NEW_ROWS} UNION ALL ${OLD_ROWS(0)}`)}
  ${counting('bench_deleted', OLD_ROWS(1))}
  CREATE TRIGGER bench_inserted AFTER INSERT ON message REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_inserted();
  CREATE TRIGGER bench_updated AFTER UPDATE ON message REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION bench_updated();
  CREATE TRIGGER bench_deleted AFTER DELETE ON message REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bench_deleted();`;

async function main(): Promise<void> {
  const baseDir = process.env.BASE_QUERIES;
  if (!baseDir) throw new Error('BASE_QUERIES: the folder of the uncounted statements');
  const base: Statements = {
    ...(await import(`${baseDir}/messagePublish.ts`)),
    ...(await import(`${baseDir}/messageClaim.ts`)),
    ...(await import(`${baseDir}/messageSettle.ts`)),
  };
  const server = await startServer(process.env.BENCH_DATABASE_URL, log);
  try {
    const variants = {
      counted: { client: await prepare(await server.createDatabase('counted')), q: current },
      uncounted: { client: await prepare(await server.createDatabase('uncounted')), q: base },
      trigger: { client: await prepare(await server.createDatabase('trigger'), TRIGGERS), q: base },
    };
    const results = Object.fromEntries(Object.keys(variants).map((name) => [name, { publish: [] as number[], settle: [] as number[] }]));
    log(`# ${ROUNDS} rounds of ${PER_ROUND} publishes and ${PER_ROUND} claim + ack, alternating (${server.facts.version})`);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, { client, q }] of Object.entries(variants)) {
        const { publish, settle } = await round(client, q, PER_ROUND);
        if (r > 0) {
          // The first round warms caches and plans.
          results[name].publish.push(...publish);
          results[name].settle.push(...settle);
        }
      }
    }
    for (const [name, { publish, settle }] of Object.entries(results)) {
      log(`${name.padEnd(10)} publish: ${stats(publish)}; claim + ack: ${stats(settle)}`);
    }
    for (const { client } of Object.values(variants)) await client.end();
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
