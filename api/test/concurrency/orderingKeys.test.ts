import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

const KEYS = 1_000;
const PER_KEY = 50;
const CONSUMERS = 50;
const BATCH = 500;

/** Real HTTP to a listening broker, keep-alive, as consumers talk to it. */
async function call(base: string, key: string, method: string, path: string, body?: unknown, instance?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (instance) headers['miniqueue-instance'] = instance;
  const response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

interface Held {
  key: string;
  round: number;
  id: string;
  consumer: number;
  /** performance.now() when the claim's answer arrived, and when the ack was sent and answered. */
  claimed: number;
  ackSent: number;
  acked: number;
}

describe('ordering keys with competing consumers on two instances', () => {
  let a: TestBroker;
  let b: TestBroker;
  beforeAll(async () => {
    a = await startTestBroker({ listen: true, env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
    b = await startTestBroker({ listen: true, databaseUrl: a.databaseUrl, adminKey: a.adminKey, env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it(`${CONSUMERS} consumers, ${KEYS} keys × ${PER_KEY}: per key in publish order, never two held at once`, async () => {
    await topology(a, 'ordered', [{ name: 'ordered-q', ack_timeout_seconds: 300 }]);
    const consumerKey = await a.clientKey('ordered-consumers', ['consume:ordered-q']);
    // The database itself refuses a second held message of one key for this run: a claim that broke
    // the guarantee would fail (and the test with it) the moment it happened, on either instance.
    await a.pool.query(`CREATE UNIQUE INDEX test_one_held_per_key ON message (queue_name, ordering_key) WHERE status = 'UNACKED' AND ordering_key IS NOT NULL`);
    const total = KEYS * PER_KEY;
    const held: Held[] = [];
    let ackedCount = 0;
    let overlapsSeen = 0;
    let publishing = true;

    // Each key's messages are published in two halves, each half as one run of consecutive items
    // (20 keys × 25 rounds per batch), so a claim that ignored keys would take many of one key at
    // once. Batches go one at a time, alternating instances, so each key's publish order is its round
    // order; the second half is published while the first is being consumed, so publishes of a key
    // race with the acks of its head.
    const HALF = PER_KEY / 2;
    const KEYS_PER_BATCH = BATCH / HALF;
    const publisher = (async () => {
      let n = 0;
      for (let half = 0; half < 2; half += 1) {
        for (let first = 0; first < KEYS; first += KEYS_PER_BATCH) {
          const messages = Array.from({ length: BATCH }, (_, i) => {
            const key = `key-${first + Math.floor(i / HALF)}`;
            const round = half * HALF + (i % HALF);
            return { payload: JSON.stringify({ key, round }), ordering_key: key };
          });
          const broker = n++ % 2 === 0 ? a : b;
          const response = await call(broker.url, a.adminKey, 'POST', '/api/v1/topics/ordered/messages/batch', { messages });
          expect(response.status).toBe(201);
        }
      }
      publishing = false;
    })();

    // Every 20 ms: is any key held twice right now? (The database's own view, across instances.)
    const sampler = (async () => {
      while (ackedCount < total) {
        const { rows } = await a.pool.query(
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM message WHERE queue_name = 'ordered-q' AND status = 'UNACKED'
             GROUP BY ordering_key HAVING count(*) > 1) x`,
        );
        overlapsSeen += rows[0].n;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const consumers = Array.from({ length: CONSUMERS }, async (_, consumer) => {
      const broker = consumer % 2 === 0 ? a : b;
      const instance = `c${consumer}`;
      while (ackedCount < total) {
        const claim = await call(broker.url, consumerKey, 'POST', '/api/v1/queues/ordered-q/consume?wait_seconds=1', undefined, instance);
        if (claim.status === 204) {
          if (!publishing && ackedCount >= total) return;
          continue;
        }
        expect(claim.status).toBe(200);
        const claimed = performance.now();
        const { key, round } = JSON.parse(claim.body.payload);
        expect(claim.body.ordering_key).toBe(key);
        const ackSent = performance.now();
        const ack = await call(broker.url, consumerKey, 'POST', `/api/v1/messages/${claim.body.message_id}/ack`, undefined, instance);
        expect(ack.status).toBe(200);
        held.push({ key, round, id: claim.body.message_id, consumer, claimed, ackSent, acked: performance.now() });
        ackedCount += 1;
      }
    });
    await Promise.all([publisher, ...consumers]);
    await sampler;

    expect(held.length).toBe(total);
    expect(overlapsSeen).toBe(0);
    const byKey = new Map<string, Held[]>();
    for (const h of held) {
      if (!byKey.has(h.key)) byKey.set(h.key, []);
      byKey.get(h.key)?.push(h);
    }
    expect(byKey.size).toBe(KEYS);
    let outOfOrder = 0;
    let overlapping = 0;
    for (const deliveries of byKey.values()) {
      deliveries.sort((x, y) => x.claimed - y.claimed);
      deliveries.forEach((d, i) => {
        if (d.round !== i) outOfOrder += 1;
        // The next one of the key was claimed only after this one's ack was sent.
        if (i > 0 && d.claimed < deliveries[i - 1].ackSent) overlapping += 1;
      });
    }
    expect({ outOfOrder, overlapping }).toEqual({ outOfOrder: 0, overlapping: 0 });

    const { rows: groups } = await a.pool.query(`SELECT count(*)::int AS n, sum(live)::int AS live FROM ordering_group WHERE queue_name = 'ordered-q'`);
    expect(groups[0]).toEqual({ n: KEYS, live: 0 });
  }, 600_000);
});
