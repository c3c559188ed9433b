import pg from 'pg';
import { migrate } from '../src/db/migrate.js';
import type * as current from './hotPathStatements.js';

/** The hot statements one round runs: this version's (hotPathStatements.ts) or another version's of the same shape. */
export type Statements = typeof current;

export async function prepare(url: string, sql = ''): Promise<pg.Client> {
  await migrate(url);
  // Without waiting for the WAL flush of each commit: what is timed is the statements' own work.
  const client = new pg.Client({ connectionString: url, options: '-c jit=off -c synchronous_commit=off' });
  client.on('error', () => undefined);
  await client.connect();
  await client.query(`INSERT INTO topic (name) VALUES ('hot');
    INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries) VALUES ('hot', 'hot', 300, 5);
    INSERT INTO queue_counter (queue_name, shard) SELECT 'hot', s FROM generate_series(0, 15) AS s; ${sql}`);
  return client;
}

/** One round: perRound publishes, then as many claim + ack pairs; milliseconds per statement (median, mean). */
export async function round(db: pg.Client, q: Statements, perRound: number, ackedRetentionHours = 0) {
  const publish: number[] = [];
  const settle: number[] = [];
  const item = { topic: 'hot', payload: 'x'.repeat(200), headers: {}, delaySeconds: 0 };
  for (let i = 0; i < perRound; i++) {
    const t = performance.now();
    await q.messagePublish(db, [item], 24);
    publish.push(performance.now() - t);
  }
  const holder = { holder: 'bench', consumerId: 'bench', queues: null };
  for (let i = 0; i < perRound; i++) {
    const t = performance.now();
    const [row] = await q.messageClaim(db, [{ queue: 'hot', holder: 'bench', consumerId: 'bench', limit: 1 }]);
    await q.messageAck(db, [{ ref: 0, id: row.id, holder }], ackedRetentionHours);
    settle.push(performance.now() - t);
  }
  return { publish, settle };
}

export const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} ms, mean ${(values.reduce((s, v) => s + v, 0) / values.length).toFixed(3)} ms`;
};
