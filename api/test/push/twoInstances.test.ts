import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { topology } from '../helpers/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { PUSH_ENV } from './support.js';

let first: TestBroker;
let second: TestBroker;
let receiver: Receiver;
/** Posts being answered right now, per message, and all of them. */
const open = new Map<string, number>();
let openNow = 0;
let mostOpen = 0;
let mostOpenForOne = 0;

beforeAll(async () => {
  first = await startTestBroker({ env: PUSH_ENV });
  second = await startTestBroker({ env: PUSH_ENV, databaseUrl: first.databaseUrl, adminKey: first.adminKey });
  // Each post is answered a little later, so posts overlap as much as the brokers let them: what
  // the test watches is how many are open at once, in all and per message.
  receiver = await startReceiver((request, response) => {
    const id = String(request.headers['miniqueue-message-id']);
    open.set(id, (open.get(id) ?? 0) + 1);
    openNow += 1;
    mostOpen = Math.max(mostOpen, openNow);
    mostOpenForOne = Math.max(mostOpenForOne, open.get(id) ?? 0);
    setTimeout(() => {
      open.set(id, (open.get(id) ?? 1) - 1);
      openNow -= 1;
      response.end('ok');
    }, 30);
  });
});
afterAll(async () => {
  await receiver.close();
  await second.stop();
  await first.stop();
});

describe('push from two instances', () => {
  it('never posts one message twice at once, and keeps max_in_flight across both', async () => {
    await topology(first, 'both', [{ name: 'both-q' }]);
    const set = await first.request('PUT', '/api/v1/queues/both-q/push', { body: { url: `${receiver.url}/both`, max_in_flight: 3 }, key: first.adminKey });
    expect(set.status).toBe(201);
    // Both instances know the endpoint before the messages come (else one might do all the work).
    const workers = [first, second].map((broker) => broker.broker.core.pushWorker);
    await Promise.all(workers.map((worker) => worker.refresh()));
    // Which instance takes a message is up to timing: rounds of 60 go on until both have taken
    // part (nearly always after the first or second), so the overlap checks below span two instances.
    const ids: string[] = [];
    const holderCount = async () =>
      (await first.pool.query(`SELECT count(DISTINCT holder)::int AS n FROM message_acked WHERE queue_name = 'both-q'`)).rows[0].n as number;
    for (let round = 0; round < 5 && (round === 0 || (await holderCount()) < 2); round += 1) {
      const messages = Array.from({ length: 60 }, (_, i) => ({ payload: `m${round}-${i}` }));
      // Published through each instance in turn: the publishing one hears of it first.
      const via = round % 2 === 0 ? first : second;
      const published = await via.post('/api/v1/topics/both/messages/batch', { messages }, via.adminKey);
      ids.push(...published.body.results.map((r: { message_ids: string[] }) => r.message_ids[0]));
      await eventually(
        async () => (await first.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = 'both-q'`)).rows[0].n === 0,
        'every message pushed and acked',
        30_000,
      );
    }
    const posted = receiver.received.map((request) => String(request.headers['miniqueue-message-id']));
    expect(posted.sort()).toEqual([...ids].sort());
    expect(mostOpenForOne).toBe(1);
    expect(mostOpen).toBeLessThanOrEqual(3);
    // Both instances took part.
    expect(await holderCount()).toBe(2);
  });
});
