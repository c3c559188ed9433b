import http from 'node:http';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { afterPutBacks, countsOf, PROMPTLY_MS, waitingConsumer, withoutRecheck } from '../helpers/putBack.js';

/**
 * A claim whose consumer never got it goes back through the broker (broker/putBack.ts): a consumer
 * already waiting on the queue is woken at once, not by the 5 s recheck, and the dashboard's counts
 * and Prometheus's agree on what was delivered.
 */
let mq: TestBroker;
let leaver: string;
let waiter: string;
let scraper: string;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'pb-poll', [{ name: 'pb-poll' }]);
  await topology(mq, 'pb-route', [{ name: 'pb-route' }]);
  leaver = await mq.clientKey('pb-leaver', ['consume:pb-poll', 'consume:pb-route']);
  waiter = await mq.clientKey('pb-waiter', ['consume:pb-poll', 'consume:pb-route']);
  scraper = await mq.clientKey('pb-prometheus', ['metrics']);
  await withoutRecheck(mq);
});
afterAll(() => mq.stop());

/** A request over a real socket that the test hangs up on when it chooses. */
function request(path: string, key: string, body: object = {}): { hangUp: () => void } {
  const payload = JSON.stringify(body);
  const sent = http.request(`${mq.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
  });
  sent.on('error', () => undefined);
  sent.end(payload);
  return { hangUp: () => sent.destroy() };
}

/** A transaction on a connection of its own, that the test commits when it chooses. */
async function transaction(sql: string, values: unknown[]): Promise<{ locked: Promise<unknown>; commit: () => Promise<void> }> {
  const client: pg.PoolClient = await mq.pool.connect();
  await client.query('BEGIN');
  const locked = client.query(sql, values);
  return {
    locked,
    commit: async () => {
      await locked;
      await client.query('COMMIT');
      client.release();
    },
  };
}

/** Holds the queue's counter rows (db/queries/queueCounts.ts): a claim that found a message waits for them, holding it. */
async function holdCounters(queue: string) {
  await mq.pool.query(
    `INSERT INTO queue_counter (queue_name, shard, pending, unacked, dead, acked)
     SELECT $1, shard, 0, 0, 0, 0 FROM generate_series(0, 15) shard ON CONFLICT DO NOTHING`,
    [queue],
  );
  const held = await transaction('SELECT 1 FROM queue_counter WHERE queue_name = $1 FOR UPDATE', [queue]);
  await held.locked;
  return held;
}

/** Locks the message's row as soon as the claim holding it commits: what comes after the claim then waits for this. */
const lockRowBehindTheClaim = (id: string) => transaction('SELECT 1 FROM message WHERE id = $1 FOR UPDATE', [id]);

const waitingForALock = async (query: string) =>
  Number((await mq.pool.query(`SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [query])).rows[0].count);

const openConnections = () =>
  new Promise<number>((resolve, reject) => mq.broker.server.listener.getConnections((error, count) => (error ? reject(error) : resolve(count))));

describe('a claim put back because its consumer is gone', () => {
  it('a long poll that claimed after its client left: the waiting consumer gets the message at once', async () => {
    const [id] = await publishOne(mq, 'pb-poll', 'for whoever is still there');
    // The claim takes the message, then waits for the counter rows this transaction holds.
    const counters = await holdCounters('pb-poll');
    const gone = request('/api/v1/queues/pb-poll/consume?wait_seconds=20', leaver);
    await eventually(async () => (await waitingForALock('%claimed%')) === 1, 'the claim to hold the message');
    // This one queues for the message's row behind that claim, and so holds up its put-back.
    const row = await lockRowBehindTheClaim(id);
    await eventually(async () => (await waitingForALock('%FROM message WHERE id = $1 FOR UPDATE%')) === 1, 'the row lock to queue');
    gone.hangUp();
    // Only the test's own connections are left: the broker saw the client go.
    await eventually(async () => (await openConnections()) === 0, 'the broker to see the client go');
    await counters.commit();
    await row.locked;
    expect(await statusOf(mq, id)).toMatchObject({ status: 'UNACKED', consumer_id: 'pb-leaver' });
    // Claimed for nobody, not yet put back: a consumer now finds nothing and waits.
    const waiting = await waitingConsumer(mq, waiter, 'pb-poll');
    const putBackFrom = Date.now();
    await row.commit();
    const got = await waiting.answered;
    expect(got).toMatchObject({ status: 200, id });
    expect(got.at - putBackFrom).toBeLessThan(PROMPTLY_MS);
    expect(await statusOf(mq, id)).toMatchObject({ status: 'UNACKED', retry_count: 0 });
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, waiter)).status).toBe(200);
    expect(await countsOf(mq, 'pb-poll', scraper)).toEqual(afterPutBacks(2, 1));
  });

  it('an answer that never reached its client: the waiting consumer gets the message at once', async () => {
    // Holds the receive route's answers on this queue after the claim (the waiter consumes), until the client has hung up.
    let hungUp!: () => void;
    const clientGone = new Promise<void>((resolve) => (hungUp = resolve));
    mq.broker.server.ext('onPreResponse', async (req, h) => {
      if (req.path === '/api/v1/queues/pb-route/receive') await clientGone;
      return h.continue;
    });
    const [id] = await publishOne(mq, 'pb-route', 'lost on the way');
    const gone = request('/api/v1/queues/pb-route/receive', leaver);
    await eventually(async () => (await statusOf(mq, id))?.status === 'UNACKED', 'the message claimed');
    const waiting = await waitingConsumer(mq, waiter, 'pb-route');
    const putBackFrom = Date.now();
    gone.hangUp();
    const got = await waiting.answered;
    hungUp();
    expect(got).toMatchObject({ status: 200, id });
    expect(got.at - putBackFrom).toBeLessThan(PROMPTLY_MS);
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, waiter)).status).toBe(200);
    expect(await countsOf(mq, 'pb-route', scraper)).toEqual(afterPutBacks(2, 1));
  });
});
