import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, topology } from '../helpers/fixtures.js';

const CAP = 3;
let mq: TestBroker;
let consumer: string;
let other: string;
beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_LONG_POLLS_PER_CREDENTIAL: String(CAP) } });
  await topology(mq, 'cap', [{ name: 'cap-q' }]);
  consumer = await mq.clientKey('cap-consumer', ['consume:cap-q']);
  other = await mq.clientKey('cap-other', ['consume:cap-q']);
});
afterAll(() => mq.stop());

const longPoll = (key: string, seconds = 10) => mq.post(`/api/v1/queues/cap-q/consume?wait_seconds=${seconds}`, undefined, key);
const waiting = () => mq.broker.context.waiters.size();

describe('how many long polls one credential may keep waiting', () => {
  it(`allows ${CAP}, answers the next 429 with Retry-After, and lets it in again once one ends`, async () => {
    const held = Array.from({ length: CAP }, () => longPoll(consumer));
    await eventually(() => waiting() === CAP, `${CAP} waiting long polls`);

    const refused = await longPoll(consumer);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      status: 429,
      code: 'long_poll_limit',
      message: `This credential already has ${CAP} long polls waiting on this instance (the limit); retry when one has ended`,
      errors: null,
      response_body: null,
    });
    expect(refused.headers['retry-after']).toBe('1');
    const refusedReceive = await mq.post('/api/v1/queues/cap-q/receive', { wait_seconds: 5 }, consumer);
    expect(refusedReceive.status).toBe(429);

    // What does not wait is not counted, and another credential has a budget of its own.
    expect((await mq.post('/api/v1/queues/cap-q/consume', undefined, consumer)).status).toBe(204);
    expect((await mq.post('/api/v1/queues/cap-q/receive', { max_messages: 5 }, consumer)).status).toBe(200);
    expect((await longPoll(other, 1)).status).toBe(204);

    await publishOne(mq, 'cap', 'wake one');
    expect(await Promise.race(held.map((poll) => poll.then((response) => response.status)))).toBe(200);
    await eventually(() => waiting() === CAP - 1, 'the answered long poll to end');
    expect((await longPoll(consumer, 1)).status).toBe(204);

    mq.broker.context.waiters.close();
    expect((await Promise.all(held)).map((response) => response.status).sort()).toEqual([200, 204, 204]);
  });
});

describe('what waiting costs the database', () => {
  it('300 waiting long polls hold no pool connection', async () => {
    const wide = await startTestBroker({ databaseUrl: mq.databaseUrl, adminKey: mq.adminKey, env: { MINIQUEUE_LONG_POLLS_PER_CREDENTIAL: '1000' } });
    try {
      const polls = Array.from({ length: 300 }, () => wide.post('/api/v1/queues/cap-q/consume?wait_seconds=20', undefined, consumer));
      await eventually(() => wide.broker.context.waiters.size() === 300, '300 waiting long polls');
      // Each first looks once (a claim, then when the next message is due), then only waits.
      await eventually(() => wide.pool.totalCount - wide.pool.idleCount === 0, 'every pool connection back, idle', 5_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(wide.pool.totalCount - wide.pool.idleCount).toBe(0);
      expect(wide.pool.waitingCount).toBe(0);
      expect(wide.broker.context.waiters.size()).toBe(300);
      wide.broker.context.waiters.close();
      expect(new Set((await Promise.all(polls)).map((response) => response.status))).toEqual(new Set([204]));
    } finally {
      await wide.stop();
    }
  });
});
