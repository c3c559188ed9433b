import pg from 'pg';
import { migrate } from '../src/db/migrate.js';
import { messageClaim } from '../src/db/queries/messageClaim.js';
import { messageClaimGated } from '../src/db/queries/messageClaimGated.js';
import { messageAck } from '../src/db/queries/messageSettle.js';
import { attentionStored, queueInsert } from '../src/db/queries/queue.js';
import { startServer } from './postgres.js';

/**
 * The two designs of a delivery rate shared by every instance, side by side (docs/api-guide.md):
 *   plain   the claim of a queue without a limit (the floor);
 *   bucket  the gated claim: the token bucket row locked, refilled and spent in the claim statement;
 *   leased  the plain claim, plus one lease statement per LEASE claims (an instance takes LEASE
 *           tokens from the shared row at a time and hands them out from memory).
 * First one connection, claim 1 + ack, timed one by one in alternating rounds; then CONNECTIONS
 * connections claiming + acking at once for SECONDS each (what the bucket row's lock costs when
 * every claim takes turns on it). The limit is set far above what is reached, so only the cost shows.
 *   npx tsx bench/gateDesigns.ts [claims per round] [rounds]
 */
const PER_ROUND = Number(process.argv[2] ?? 400);
const ROUNDS = Number(process.argv[3] ?? 5);
const LEASE = 20;
const CONNECTIONS = 8;
const SECONDS = 5;
const log = (line: string) => process.stdout.write(`${line}\n`);
const holder = { holder: 'bench', consumerId: 'bench', queues: null };

type Claim = (db: pg.Client, queue: string) => Promise<string | undefined>;

const plain: Claim = async (db, queue) => (await messageClaim(db, [{ queue, holder: 'bench', consumerId: 'bench', limit: 1 }]))[0]?.id;
const bucket: Claim = async (db, queue) => {
  const rows = await messageClaimGated(db, [{ queue, holder: 'bench', consumerId: 'bench', limit: 1, holdSeconds: 5 }]);
  return rows.find((row) => row.kind === 'message')?.id;
};
/** What an instance leasing tokens does per claim: mostly the plain claim, and a lease every LEASE claims. */
const leased = (): Claim => {
  let left = 0;
  return async (db, queue) => {
    if (left === 0) {
      await db.query(`UPDATE queue_delivery_tokens SET tokens = tokens - $2, refilled_at = clock_timestamp() WHERE queue_name = $1 RETURNING tokens`, [
        'bench-leased',
        LEASE,
      ]);
      left = LEASE;
    }
    left -= 1;
    return plain(db, queue);
  };
};

async function connect(url: string): Promise<pg.Client> {
  // Without waiting for the WAL flush of each commit: what is timed is the statements' own work.
  const client = new pg.Client({ connectionString: url, options: '-c jit=off -c synchronous_commit=off' });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

async function seed(db: pg.Client, queue: string, rate: number | null, count: number): Promise<void> {
  await queueInsert(db, {
    name: queue,
    topicName: 'bench',
    ackTimeoutSeconds: 300,
    maxRetries: 5,
    ackedRetentionHours: 0,
    requireOrderingKey: false,
    filter: null,
    singleActiveConsumer: false,
    maxDeliveriesPerSecond: rate,
    maxMessages: null,
    maxBytes: null,
    overflow: 'reject_publish',
    messageTtlSeconds: null,
    onExpiry: 'dead_letter',
    deadLetterTopic: null,
    deadLetterKeep: false,
    maxPriority: null,
    fairness: 'none',
    maxInFlightPerKey: null,
    attention: attentionStored({}),
  });
  await db.query(
    `INSERT INTO message (id, seq, queue_name, topic_name, payload, headers, status, published_at, available_at)
     SELECT miniqueue_uuidv7(), s, $1, 'bench', repeat('x', 200), '{}', 'PENDING', now(), now() FROM generate_series(1, $2) AS s`,
    [queue, count],
  );
  await db.query('ANALYZE message');
}

async function claimAndAck(db: pg.Client, claim: Claim, queue: string): Promise<boolean> {
  const id = await claim(db, queue);
  if (!id) return false;
  await messageAck(db, [{ ref: 0, id, holder }], 0);
  return true;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const server = await startServer(process.env.BENCH_DATABASE_URL, log);
  try {
    const url = await server.createDatabase('gates');
    await migrate(url);
    const db = await connect(url);
    await db.query(`INSERT INTO topic (name) VALUES ('bench')`);
    const total = 2 * PER_ROUND * ROUNDS + 60_000;
    await seed(db, 'bench-plain', null, total);
    await seed(db, 'bench-bucket', 100_000, total);
    await seed(db, 'bench-leased', 100_000, total);
    const variants: [string, Claim, string][] = [
      ['plain', plain, 'bench-plain'],
      ['bucket', bucket, 'bench-bucket'],
      ['leased', leased(), 'bench-plain'],
    ];
    const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
    log(`# one connection: ${ROUNDS} rounds of ${PER_ROUND} claim (1) + ack, alternating; leases of ${LEASE} (${server.facts.version})`);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, claim, queue] of variants) {
        for (let i = 0; i < PER_ROUND; i += 1) {
          const started = performance.now();
          await claimAndAck(db, claim, queue);
          // The first round warms caches and plans.
          if (round > 0) times.get(name)?.push(performance.now() - started);
        }
      }
    }
    for (const [name, values] of times) log(`${name.padEnd(7)} claim + ack: median ${median(values).toFixed(3)} ms`);

    log(`# ${CONNECTIONS} connections at once, ${SECONDS} s each: claims + acks a second`);
    const clients = await Promise.all(Array.from({ length: CONNECTIONS }, () => connect(url)));
    for (const [name, , queue] of variants) {
      const perClient = clients.map(() => (name === 'leased' ? leased() : name === 'bucket' ? bucket : plain));
      const until = Date.now() + SECONDS * 1000;
      let done = 0;
      await Promise.all(
        clients.map(async (client, i) => {
          while (Date.now() < until) if (await claimAndAck(client, perClient[i], queue)) done += 1;
        }),
      );
      log(`${name.padEnd(7)} ${(done / SECONDS).toFixed(0)}/s`);
    }
    await Promise.all([...clients, db].map((client) => client.end()));
  } finally {
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
