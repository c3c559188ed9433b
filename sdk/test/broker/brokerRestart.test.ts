import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBroker, startTestBroker, type BrokerProcess, type TestBroker } from '@miniqueue/api/testing';
import { MiniQueue } from '../../src/index.js';
import { sleep, until } from '../helpers/broker.js';

const IN_FLIGHT = 256;

/** Rows stored for the topic, per payload: the database's own count, whatever the broker answered. */
async function storedPerPayload(db: TestBroker, topic: string): Promise<Map<string, number>> {
  const { rows } = await db.pool.query<{ payload: string; copies: number }>(
    'SELECT payload, count(*)::int AS copies FROM message WHERE topic_name = $1 GROUP BY payload',
    [topic],
  );
  return new Map(rows.map((row) => [row.payload, row.copies]));
}

/** Runs `count` calls of `call`, at most `concurrency` at once; answers each one's error, if any. */
async function inPool(count: number, concurrency: number, call: (i: number) => Promise<unknown>): Promise<unknown[]> {
  const errors: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await call(i).catch((error: unknown) => errors.push(error));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return errors;
}

describe.each([
  { transport: 'stream' as const, publishes: 3000, awayMs: 6000 },
  { transport: 'http' as const, publishes: 1000, awayMs: 6000 },
  // Away for longer than 30 s: still within the default policy's minute.
  { transport: 'stream' as const, publishes: 600, awayMs: 32_000 },
])(
  'a broker killed with SIGKILL and restarted on the same port $awayMs ms later, under $transport publishes',
  ({ transport, publishes: PUBLISHES, awayMs }) => {
    const TOPIC = `restart-${transport}-${awayMs}`;
    // The in-process broker only owns the database (its pool counts the rows); the broker processes serve the client.
    let db: TestBroker;
    const brokers: BrokerProcess[] = [];
    const spawn = async (port?: string) => {
      const env: Record<string, string> = { DATABASE_URL: db.databaseUrl, MINIQUEUE_BOOTSTRAP_ADMIN_KEY: db.adminKey };
      const broker = await spawnBroker(port ? { ...env, PORT: port } : env);
      brokers.push(broker);
      return broker;
    };

    beforeAll(async () => {
      db = await startTestBroker();
    });
    afterAll(async () => {
      for (const broker of brokers) await broker.kill();
      await db?.stop();
    });

    it('with the default retry policy: no publish fails, each is stored exactly once', async () => {
      const first = await spawn();
      const admin = new MiniQueue({ url: first.url, apiKey: db.adminKey, transport: 'http' });
      await admin.topics.create(TOPIC);
      await admin.queues.create(TOPIC, TOPIC);
      const producer = new MiniQueue({ url: first.url, apiKey: db.adminKey, transport });

      let confirmed = 0;
      const publishing = inPool(PUBLISHES, IN_FLIGHT, (i) => producer.publish(TOPIC, `p${i}`).then(() => confirmed++));
      await until(() => confirmed >= PUBLISHES / 6, 30_000, 'a sixth confirmed before the kill');
      await first.kill();
      const confirmedAtKill = confirmed;
      // The broker is away for awayMs (plus its start-up) before it is back on the same port.
      await sleep(awayMs);
      await spawn(new URL(first.url).port);
      const errors = await publishing;
      producer.close();

      expect(confirmedAtKill, 'the kill came mid-run').toBeLessThan(PUBLISHES);
      expect(errors.map(String).slice(0, 3), `${errors.length} of ${PUBLISHES} publishes failed`).toEqual([]);
      const stored = await storedPerPayload(db, TOPIC);
      const duplicated = [...stored].filter(([, copies]) => copies > 1);
      expect(duplicated.slice(0, 5), `${duplicated.length} payloads stored more than once`).toEqual([]);
      const missing = Array.from({ length: PUBLISHES }, (_, i) => `p${i}`).filter((payload) => !stored.has(payload));
      expect(missing.slice(0, 5), `${missing.length} publishes not stored`).toEqual([]);
    }, 120_000);
  },
);
