import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { startPair } from '../realtime/support.js';

/**
 * max_in_flight_per_key under 32 concurrent consumers on two instances of one database: no key is
 * ever given more than its limit. Nothing is acked within a round, so a claim that counted what is
 * in flight from a snapshot older than another's commit would leave its key over the limit for the
 * check to see. The guard is the queue's turn row, locked by the claim statement before
 * miniqueue_fair_keys counts what is in flight with snapshots of its own (VOLATILE; migration 0022).
 */
const CONSUMERS = 32;
const ROUNDS = 6;
const KEYS = ['k0', 'k1', 'k2', 'k3'];
const PER_KEY = 3;
let a: TestBroker;
let b: TestBroker;

beforeAll(async () => {
  [a, b] = await startPair({ MINIQUEUE_RATE_LIMIT_ENABLED: 'false', MINIQUEUE_DB_POOL_SIZE: '16' });
  expect((await a.post('/api/v1/topics', { name: 'fair-race' }, a.adminKey)).status).toBe(201);
  const queue = { name: 'fair-race-q', topic_name: 'fair-race', fairness: 'by_key', max_in_flight_per_key: PER_KEY, ack_timeout_seconds: 600 };
  expect((await a.post('/api/v1/queues', queue, a.adminKey)).status).toBe(201);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

const inFlightByKey = async () =>
  (
    await a.pool.query<{ group_key: string; n: number }>(
      `SELECT group_key, count(*)::int AS n FROM message WHERE queue_name = 'fair-race-q' AND status = 'UNACKED' GROUP BY 1 ORDER BY 1`,
    )
  ).rows;

describe('max_in_flight_per_key under 32 concurrent consumers on two instances', () => {
  it('never lets a key have more than its limit in flight', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const messages = KEYS.flatMap((key) => Array.from({ length: 40 }, (_, i) => ({ payload: `${round}-${key}-${i}`, group_key: key })));
      expect((await a.post('/api/v1/topics/fair-race/messages/batch', { messages }, a.adminKey)).status).toBe(201);

      // Every consumer asks at once, twice, each for a few: many claim statements race on each instance.
      const delivered: string[] = [];
      await Promise.all(
        Array.from({ length: CONSUMERS }, async (_, n) => {
          const mq = n % 2 === 0 ? a : b;
          for (let ask = 0; ask < 2; ask++) {
            const response = await mq.post('/api/v1/queues/fair-race-q/receive', { max_messages: 1 + (n % 3) }, mq.adminKey, {
              'MiniQueue-Instance': `consumer-${n}`,
            });
            expect(response.status, JSON.stringify(response.body)).toBe(200);
            delivered.push(...response.body.messages.map((m: { message_id: string }) => m.message_id));
          }
        }),
      );
      const held = await inFlightByKey();
      expect(held, `round ${round}`).toEqual(KEYS.map((group_key) => ({ group_key, n: PER_KEY })));
      expect(new Set(delivered).size).toBe(KEYS.length * PER_KEY);
      expect(delivered).toHaveLength(KEYS.length * PER_KEY);

      // The next round starts empty (each consumer is a holder of its own: purging is simpler than acking).
      expect((await a.post('/api/v1/queues/fair-race-q/purge', undefined, a.adminKey)).status).toBe(200);
    }
  });
});
