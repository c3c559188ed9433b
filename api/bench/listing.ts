import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { HEADER_SCAN_ROWS, TOTAL_CAP } from '../src/broker/listing.js';
import { startEmbeddedDatabase } from '../src/db/embedded.js';
import { migrate } from '../src/db/migrate.js';
import type { Queryable } from '../src/db/pool.js';
import { messageCount, messageHeaderScan, messageListPage, messageRowsByIds, type ListFilter } from '../src/db/queries/messageList.js';
import { ratesFlush } from '../src/db/queries/rates.js';
import { explaining, summary } from './explain.js';

/**
 * What finding a message costs in a big queue, and what a header index would cost every publish.
 *   npm run bench:listing -w @miniqueue/api [pending]   (default 1,000,000 pending in one queue)
 * Seeds one queue straight through SQL (every 100th message has header customer=42, one has
 * customer=needle), then runs the listing's own statements under EXPLAIN (ANALYZE, BUFFERS) and
 * prints each plan's execution time and buffers. Then it times single-row publishes into `message`
 * as migrated, without the publish-time index the listing reads (migration 0018), and with a GIN
 * index on headers, the alternative to the bounded scan.
 */
const PENDING = Number(process.argv[2] ?? 1_000_000);
const INSERTS = 20_000;
const INSERTERS = 8;
const log = (line: string) => process.stdout.write(`${line}\n`);

async function seed(client: pg.Client): Promise<void> {
  await client.query(`INSERT INTO topic (name) VALUES ('big')`);
  await client.query(`INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries) VALUES ('big', 'big', 30, 5)`);
  await client.query(
    `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
     SELECT miniqueue_uuidv7(), 'big', 'big', repeat('x', 200),
            jsonb_build_object('customer', CASE WHEN i = $1 / 2 THEN 'needle' WHEN i % 100 = 0 THEN '42' ELSE i::text END),
            'PENDING', now() + i * interval '1 microsecond', now() + i * interval '1 microsecond'
       FROM generate_series(1, $1) AS i`,
    [PENDING],
  );
  await client.query('VACUUM (ANALYZE) message');
}

async function listingPlans(client: pg.Client): Promise<void> {
  const base: ListFilter = { queue: 'big', order: 'asc', limit: 51, defaultRetentionHours: 24 };
  const cases: [string, (db: Queryable) => Promise<unknown>][] = [
    ['first page, oldest first (limit 50)', (db) => messageListPage(db, base)],
    ['first page, newest first', (db) => messageListPage(db, { ...base, order: 'desc' })],
    [
      `a page in the middle (cursor at ${(PENDING / 2).toLocaleString('en-US')})`,
      async (db) => {
        const { rows } = await client.query(
          `SELECT (extract(epoch FROM published_at) * 1000000)::bigint::text AS micros, seq::text FROM message ORDER BY published_at, seq OFFSET $1 LIMIT 1`,
          [Math.floor(PENDING / 2)],
        );
        return messageListPage(db, { ...base, after: rows[0] });
      },
    ],
    ['status=PENDING, newest first', (db) => messageListPage(db, { ...base, status: 'PENDING', order: 'desc' })],
    [`total, counted up to ${TOTAL_CAP + 1}`, (db) => messageCount(db, base, TOTAL_CAP + 1)],
    [
      `header customer=42 (1 in 100), one page: scan ${HEADER_SCAN_ROWS}`,
      async (db) => {
        const scan = await messageHeaderScan(db, { ...base, header: { name: 'customer', value: '42' }, scan: HEADER_SCAN_ROWS });
        return messageRowsByIds(db, 'big', scan.ids.slice(0, 50));
      },
    ],
    [
      `header customer=needle (1 in ${PENDING}), one page: scan ${HEADER_SCAN_ROWS}`,
      (db) => messageHeaderScan(db, { ...base, header: { name: 'customer', value: 'needle' }, scan: HEADER_SCAN_ROWS }),
    ],
    ['depth sample of every queue (rates write, sampling instance)', (db) => ratesFlush(db, { queues: [], topics: [], pollers: [] }, Date.now())],
    ['rates write of an instance that does not sample', (db) => ratesFlush(db, { queues: [], topics: [], pollers: [] }, null)],
  ];
  for (const [name, run] of cases) {
    const plans: string[][] = [];
    await run(explaining(client, plans));
    log(`\n## ${name}`);
    for (const plan of plans) log(`   ${summary(plan)}`);
    if (process.env.BENCH_LISTING_PLANS === '1') for (const plan of plans) log(plan.join('\n'));
  }
}

/** INSERTS single-row publishes into message from INSERTERS connections: rows per second and WAL bytes per row. */
async function publishCost(url: string, client: pg.Client): Promise<{ perSecond: number; walPerRow: number }> {
  const clients = await Promise.all(
    Array.from({ length: INSERTERS }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  await client.query('CHECKPOINT');
  const walBefore = (await client.query(`SELECT pg_current_wal_insert_lsn() AS lsn`)).rows[0].lsn;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    clients.map(async (c) => {
      while (next < INSERTS) {
        const i = next++;
        await c.query(
          `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
         VALUES (miniqueue_uuidv7(), 'pub', 'big', $1, $2, 'PENDING', now(), now())`,
          [`payload ${i}`, JSON.stringify({ customer: String(i % 1000), 'content-type': 'application/json', trace: `t-${i}` })],
        );
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const wal = (await client.query(`SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1)::bigint AS bytes`, [walBefore])).rows[0].bytes;
  await Promise.all(clients.map((c) => c.end()));
  await client.query(`DELETE FROM message WHERE queue_name = 'pub'`);
  await client.query('VACUUM message');
  return { perSecond: INSERTS / seconds, walPerRow: Number(wal) / INSERTS };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-listing-'));
  const database = await startEmbeddedDatabase(dir);
  try {
    await migrate(database.url);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('SET jit = off');
    log(`# Listing one queue of ${PENDING.toLocaleString('en-US')} pending messages (${(await client.query('SELECT version()')).rows[0].version})`);
    const seeding = performance.now();
    await seed(client);
    log(`seeded in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
    await listingPlans(client);

    log(
      `\n# Publish cost: ${INSERTS.toLocaleString('en-US')} single-row INSERTs into message, ${INSERTERS} connections, ${PENDING.toLocaleString('en-US')} rows in the table`,
    );
    const rounds: Record<string, { perSecond: number; walPerRow: number }[]> = {
      'as migrated': [],
      'without the publish-time index': [],
      'plus GIN (headers jsonb_path_ops)': [],
    };
    for (let round = 0; round < 2; round++) {
      rounds['as migrated'].push(await publishCost(database.url, client));
      await client.query('DROP INDEX message_published_idx');
      rounds['without the publish-time index'].push(await publishCost(database.url, client));
      await client.query(`CREATE INDEX message_published_idx ON message (queue_name, published_at, seq) WHERE status <> 'UNACKED'`);
      await client.query('CREATE INDEX message_headers_gin ON message USING gin (headers jsonb_path_ops)');
      rounds['plus GIN (headers jsonb_path_ops)'].push(await publishCost(database.url, client));
      await client.query('DROP INDEX message_headers_gin');
    }
    for (const [name, results] of Object.entries(rounds)) {
      const perSecond = results.map((r) => Math.round(r.perSecond).toLocaleString('en-US')).join(', ');
      const wal = results.map((r) => Math.round(r.walPerRow)).join(', ');
      log(`${name.padEnd(34)} rows/s ${perSecond}; WAL bytes/row ${wal}`);
    }
    await client.end();
  } finally {
    await database.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
