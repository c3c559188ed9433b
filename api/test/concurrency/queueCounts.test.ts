import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { expirySweeper } from '../../src/jobs/expirySweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

/**
 * The per-queue counters the dashboard and the gauges read (pending, unacked, dead, live payload bytes) against
 * count(*) of the messages themselves, while publishers, consumers, the lease sweeper, lease
 * expiry forced at random, message expiry forced at random and its sweep, dead letters routed to
 * another queue (cd, by the dead_letter_topic of ca and cb), dead-letter replays and deletions all
 * run at once. One statement reads
 * both sides, in one snapshot: at every moment, not only at the end, they must be equal.
 */
const RUN_MS = 4_000;
const QUEUES = ['ca', 'cb'];
/** The counters checked: the queues consumed from, and the one their dead letters are routed to. */
const CHECKED = [...QUEUES, 'cd'];
let mq: TestBroker;

const COMPARE = `
  WITH counted AS (
         SELECT queue_name, sum(pending)::int AS pending, sum(unacked)::int AS unacked, sum(dead)::int AS dead, sum(bytes)::int AS bytes
           FROM queue_counter WHERE queue_name = ANY ($1) GROUP BY 1),
       actual AS (
         SELECT q AS queue_name,
                (SELECT count(*) FROM message m WHERE m.queue_name = q AND m.status IN ('PENDING', 'BLOCKED'))::int AS pending,
                (SELECT count(*) FROM message m WHERE m.queue_name = q AND m.status = 'UNACKED')::int AS unacked,
                (SELECT count(*) FROM message_dead d WHERE d.queue_name = q)::int AS dead,
                (SELECT coalesce(sum(octet_length(m.payload)), 0) FROM message m WHERE m.queue_name = q)::int AS bytes
           FROM unnest($1::text[]) AS q)
  SELECT a.queue_name, row(c.pending, c.unacked, c.dead, c.bytes)::text AS counted, row(a.pending, a.unacked, a.dead, a.bytes)::text AS actual
    FROM actual a LEFT JOIN counted c USING (queue_name) ORDER BY 1`;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false', MINIQUEUE_DB_POOL_SIZE: '16' } });
  await topology(mq, 'counted.dead', [{ name: 'cd' }]);
  await topology(mq, 'counted', [
    { name: 'ca', max_retries: 1, ack_timeout_seconds: 30, message_ttl_seconds: 600, dead_letter_topic: 'counted.dead', dead_letter_keep: true },
    { name: 'cb', max_retries: 0, ack_timeout_seconds: 30, message_ttl_seconds: 600, on_expiry: 'drop', dead_letter_topic: 'counted.dead' },
  ]);
});
afterAll(() => mq?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('queue counters under concurrent publishers, consumers, expiry and dead-letter work', () => {
  it('always equal the counts of the messages themselves', async () => {
    const deadline = Date.now() + RUN_MS;
    // On a loaded machine the run goes on past RUN_MS until it has done enough to mean something.
    const hardStop = Date.now() + 4 * RUN_MS;
    const enough = () => published > 100 && settled > 50;
    const running = () => Date.now() < deadline || (!enough() && Date.now() < hardStop);
    const mismatches: unknown[] = [];
    let published = 0;
    let settled = 0;
    const publisher = async (n: number) => {
      for (let i = 0; running(); i++) {
        if (i % 5 === 0) {
          const messages = Array.from({ length: 20 }, (_, j) => ({ payload: `b${n}-${i}-${j}`, ...(j % 4 === 0 ? { ordering_key: `k${j % 3}` } : {}) }));
          if ((await mq.post('/api/v1/topics/counted/messages/batch', { messages }, mq.adminKey)).status === 201) published += 20;
        } else {
          const body = { payload: `s${n}-${i}`, ...(i % 3 === 0 ? { ordering_key: `k${n}` } : {}) };
          if ((await mq.post('/api/v1/topics/counted/messages', body, mq.adminKey)).status === 201) published += 1;
        }
      }
    };
    const consumer = async (n: number) => {
      for (let i = 0; running(); i++) {
        const queue = QUEUES[(n + i) % 2];
        const claimed = await mq.post(`/api/v1/queues/${queue}/consume`, undefined, mq.adminKey);
        if (claimed.status !== 200) continue;
        const id = claimed.body.message_id;
        const roll = (n * 7 + i) % 10;
        // Acks and nacks that may come after the lease was taken away (the chaos below): those fail.
        if (roll < 5) await mq.post(`/api/v1/messages/${id}/ack`, undefined, mq.adminKey);
        else if (roll < 7) await mq.post(`/api/v1/messages/${id}/nack`, { requeue: true }, mq.adminKey);
        else if (roll < 8) await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, mq.adminKey);
        settled += 1;
      }
    };
    const sweeper = leaseSweeper(mq.pool, mq.broker.context.changes);
    const expiry = expirySweeper(mq.pool, mq.broker.context.changes);
    const chaos = async () => {
      while (running()) {
        await mq.pool.query(`UPDATE message SET lease_expires_at = now() - interval '1 second' WHERE status = 'UNACKED' AND random() < 0.5`);
        await sweeper.runOnce();
        await mq.pool.query(`UPDATE message SET expires_at = now() - interval '1 second' WHERE queue_name <> 'cd' AND random() < 0.1`);
        await expiry.runOnce();
        await sleep(10);
      }
    };
    const deadLetters = async () => {
      for (let i = 0; running(); i++) {
        const body = { queue: QUEUES[i % 2], limit: 5 };
        await mq.post(i % 3 === 0 ? '/api/v1/dashboard/dlq/delete' : '/api/v1/dashboard/dlq/replay', body, mq.adminKey);
        await sleep(20);
      }
    };
    const checker = async () => {
      while (running()) {
        const { rows } = await mq.pool.query(COMPARE, [CHECKED]);
        for (const row of rows) if (row.counted !== row.actual) mismatches.push(row);
        await sleep(25);
      }
    };
    await Promise.all([...[0, 1, 2].map(publisher), ...[0, 1, 2, 3, 4].map(consumer), chaos(), sweeper.runOnce(), deadLetters(), checker()]);
    const { rows } = await mq.pool.query(COMPARE, [CHECKED]);
    console.log(`published ${published}, settled ${settled}; at the end ${JSON.stringify(rows)}; ${mismatches.length} mismatches seen`);
    expect(published).toBeGreaterThan(100);
    expect(settled).toBeGreaterThan(50);
    expect(mismatches.slice(0, 5)).toEqual([]);
    for (const row of rows) expect(row.counted).toBe(row.actual);
  }, 60_000);
});
