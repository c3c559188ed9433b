import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { publishOne, statusOf, topology } from '../helpers/fixtures.js';
import { openStream } from '../stream/support.js';
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

/**
 * Holds the leaver's next claim after it committed, until `letGo`: the claim, its statement and
 * what follows are the broker's own; only the moment the long poll looks at its requester again is
 * the test's, so the requester can leave in between.
 */
function holdTheLeaversClaim(): { claimed: Promise<void>; letGo: () => void } {
  const claimer = mq.broker.context.claimer;
  const original = claimer.claimWaiting.bind(claimer);
  let claimedNow!: () => void;
  let letGo!: () => void;
  const claimed = new Promise<void>((resolve) => (claimedNow = resolve));
  const gate = new Promise<void>((resolve) => (letGo = resolve));
  claimer.claimWaiting = async (item, waitSeconds) => {
    const outcome = await original(item, waitSeconds);
    if (!item.consumerId.startsWith('pb-leaver') || outcome.rows.length === 0) return outcome;
    claimer.claimWaiting = original;
    claimedNow();
    await gate;
    return outcome;
  };
  return { claimed, letGo };
}

describe('a claim put back because its consumer is gone', () => {
  // The claim of a stream's subscription is a long poll (broker/longPoll.ts) whose requester may leave while it runs.
  it('a long poll that claimed after its requester left: the waiting consumer gets the message at once', async () => {
    const leaving = await openStream(mq, { key: leaver });
    const held = holdTheLeaversClaim();
    leaving.send({ type: 'subscribe', sub: 's', queue: 'pb-poll', prefetch: 1 });
    await leaving.next((frame) => frame.type === 'subscribed');
    const [id] = await publishOne(mq, 'pb-poll', 'for whoever is still there');
    await held.claimed;
    // Claimed for a requester about to leave: a consumer now finds nothing and waits.
    expect(await statusOf(mq, id)).toMatchObject({ status: 'UNACKED', consumer_id: expect.stringMatching(/^pb-leaver/) });
    const waiting = await waitingConsumer(mq, waiter, 'pb-poll', mq.broker.context.waiters.size());
    leaving.ws.close(1000);
    await leaving.closed;
    const putBackFrom = Date.now();
    held.letGo();
    const got = await waiting.answered;
    expect(got).toMatchObject({ status: 200, id });
    expect(got.at - putBackFrom).toBeLessThan(PROMPTLY_MS);
    expect(await statusOf(mq, id)).toMatchObject({ status: 'UNACKED', retry_count: 0 });
    expect(leaving.frames.filter((frame) => frame.type === 'deliver')).toEqual([]);
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
