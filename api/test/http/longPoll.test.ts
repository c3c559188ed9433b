import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { RECHECK_INTERVAL_MS } from '../../src/broker/longPollRecheck.js';
import { isRateWrite, namesQueue, sentDuring, statementsDuring, type SentStatement } from '../helpers/statements.js';

let a: TestBroker;
let b: TestBroker;
let consumer: string;
beforeAll(async () => {
  a = await startTestBroker();
  b = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
  await topology(a, 'lp', [{ name: 'lp-q' }]);
  consumer = await a.clientKey('lp-consumer', ['consume:lp-q']);
});
afterAll(async () => {
  await b.stop();
  await a.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('long polling', () => {
  it('a consumer waiting on instance A is woken by a publish through instance B', async () => {
    const started = Date.now();
    const waiting = a.post('/api/v1/queues/lp-q/consume?wait_seconds=10', undefined, consumer);
    await sleep(300);
    const [id] = await publishOne(b, 'lp', 'wake up');
    const response = await waiting;
    expect(response.status).toBe(200);
    expect(response.body.message_id).toBe(id);
    // Woken by the notification, well before the 10 s wait ran out.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('waiting costs no polling: an idle 2 s wait sends only a handful of statements', async () => {
    const statements = await sentDuring(async () => {
      const response = await a.post('/api/v1/queues/lp-q/receive', { wait_seconds: 2 }, consumer);
      expect(response.body).toEqual({ messages: [] });
    });
    // The waiter's statements are those naming its queue: the periodic work of both brokers (rates
    // every 5 s, lease expiry, presence) runs whatever waits, and is not the waiter's. The rates'
    // write names the queue too (its poller marked seen, its counts), once per 5-second bucket and
    // more on a slow machine: it is left out with the rest of the periodic work.
    const named = statements.filter((statement) => namesQueue('lp-q')(statement) && !isRateWrite(statement.text));
    // The safety-net recheck of all queues with waiters runs every 5 s, one statement for all of
    // them however many wait: a 2 s wait overlaps one or none.
    const isRecheck = (statement: SentStatement) => statement.text.includes('SELECT w.queue, (SELECT count(*)');
    const own = named.filter((statement) => !isRecheck(statement));
    const said = named.map((statement) => statement.text.slice(0, 80)).join('\n');
    expect(RECHECK_INTERVAL_MS).toBeGreaterThan(2_000);
    expect(named.filter(isRecheck).length, said).toBeLessThanOrEqual(1);
    // One claim and one look at the queue at the start, one of each when the time is up.
    expect(own.length, said).toBeGreaterThanOrEqual(2);
    expect(own.length, said).toBeLessThanOrEqual(4);
  });

  it('a delayed message wakes the waiter when its delay elapses', async () => {
    await a.post('/api/v1/topics/lp/messages', { payload: 'later', delay_seconds: 1 }, a.adminKey);
    const started = Date.now();
    const response = await a.post('/api/v1/queues/lp-q/receive', { wait_seconds: 10, max_messages: 5 }, consumer);
    expect(response.body.messages).toHaveLength(1);
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(500);
    expect(waited).toBeLessThan(5_000);
  });

  it('a nack makes the message claimable for a waiter on the other instance', async () => {
    const [id] = await publishOne(a, 'lp', 'retry me');
    const claimed = await a.post('/api/v1/queues/lp-q/consume', undefined, consumer);
    expect(claimed.body.message_id).toBe(id);
    const waiting = b.post('/api/v1/queues/lp-q/consume?wait_seconds=10', undefined, consumer, { 'MiniQueue-Instance': 'other' });
    await sleep(300);
    await a.post(`/api/v1/messages/${id}/nack`, {}, consumer);
    const response = await waiting;
    expect(response.body).toMatchObject({ message_id: id, retry_count: 1, consumer_id: 'lp-consumer/other' });
  });

  it('shutdown ends waiting long polls at once with an empty answer', async () => {
    const c = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
    const waiting = c.post('/api/v1/queues/lp-q/consume?wait_seconds=20', undefined, consumer);
    await sleep(300);
    const started = Date.now();
    await c.stop();
    expect((await waiting).status).toBe(204);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

describe('a queue deleted under its waiters', () => {
  it('answers their long polls 404 at once, on every instance', async () => {
    await a.post('/api/v1/queues', { name: 'short-lived', topic_name: 'lp' }, a.adminKey);
    const key = await a.clientKey('short-lived-consumer', ['consume:short-lived']);
    const started = Date.now();
    const onA = a.post('/api/v1/queues/short-lived/consume?wait_seconds=20', undefined, key);
    const onB = b.post('/api/v1/queues/short-lived/receive', { wait_seconds: 20 }, key);
    await sleep(300);
    expect((await a.del('/api/v1/queues/short-lived', a.adminKey)).status).toBe(204);
    const answers = await Promise.all([onA, onB]);
    expect(answers.map((answer) => answer.status)).toEqual([404, 404]);
    // Not at the end of the wait, nor at the five-second safety recheck.
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('a notification that never came', () => {
  it('is made up for by one recheck of the queues that have waiters', async () => {
    // The recheck runs here by hand, not on its 5 s timer, which could otherwise find the message first.
    await a.broker.core.recheck.stop();
    const waiting = a.post('/api/v1/queues/lp-q/consume?wait_seconds=20', undefined, consumer, { 'MiniQueue-Instance': 'lost' });
    await sleep(300);
    // Stored behind the broker's back: no instance hears of it.
    const { rows } = await a.pool.query(
      `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
       VALUES (miniqueue_uuidv7(), 'lp-q', 'lp', 'unannounced', '{}', 'PENDING', now(), now()) RETURNING id`,
    );
    await sleep(300);
    expect(a.broker.context.waiters.size()).toBe(1);
    const statements = await statementsDuring(() => a.broker.core.recheck.runOnce());
    // One look at every queue with waiters, then the woken waiter's claim.
    expect(statements.filter((sql) => sql.includes('AS w (queue, cap)'))).toHaveLength(1);
    expect((await waiting).body.message_id).toBe(rows[0].id);
  });
});
