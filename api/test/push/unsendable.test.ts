import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../src/push/deliver.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { statusOf, topology } from '../helpers/fixtures.js';
import { startReceiver, type Receiver } from './receiver.js';
import { PUSH_ENV } from './support.js';

/**
 * A push that cannot even be sent is a failed attempt like a 500: nacked at once with why, its
 * backoff and retries as for any failure, never left to wait out its lease (the ack timeout, long
 * here so that waiting for it could not pass for the fix).
 */
const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const LONG_LEASE = 120;

let mq: TestBroker;
let receiver: Receiver;
beforeAll(async () => {
  mq = await startTestBroker({ env: PUSH_ENV });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await mq?.stop();
});

const setPush = (queue: string, body: Record<string, unknown>) => mq.request('PUT', `/api/v1/queues/${queue}/push`, { body, key: mq.adminKey });
const publish = async (topic: string, headers: Record<string, string> = {}) => {
  const response = await mq.post(`/api/v1/topics/${topic}/messages`, { payload: 'p', headers }, mq.adminKey);
  expect(response.status).toBe(201);
  return response.body.message_ids[0] as string;
};
const pushedWith = (id: string) => receiver.received.filter((request) => request.headers['miniqueue-message-id'] === id);

describe('a push that cannot be sent', () => {
  it('a message stored with a tracestate no HTTP client may send is pushed without it, and the next one right after it', async () => {
    await topology(mq, 'unsendable', [{ name: 'unsendable-q', ack_timeout_seconds: LONG_LEASE }]);
    const first = await publish('unsendable', { traceparent: PARENT });
    const second = await publish('unsendable', { traceparent: PARENT });
    // As a message stored before publishes checked their trace headers (or copied from one) carries it.
    await mq.pool.query(`UPDATE message SET headers = headers || jsonb_build_object('tracestate', E'vendor=a\\nb') WHERE id = $1`, [first]);
    expect((await setPush('unsendable-q', { url: `${receiver.url}/hook`, max_in_flight: 1 })).status).toBe(201);
    await eventually(async () => (await statusOf(mq, first))?.status === 'ACKED' && (await statusOf(mq, second))?.status === 'ACKED', 'both pushed and acked');
    expect(pushedWith(first)).toHaveLength(1);
    expect(pushedWith(first)[0].headers.traceparent).toBe(PARENT);
    expect(pushedWith(first)[0].headers).not.toHaveProperty('tracestate');
  });

  it('whose request throws before it is sent (a secret that cannot be unsealed) is nacked with its reason, and the next is tried at once', async () => {
    await topology(mq, 'unsealable', [{ name: 'unsealable-q', ack_timeout_seconds: LONG_LEASE, max_retries: 0 }]);
    expect((await setPush('unsealable-q', { url: `${receiver.url}/unsealable`, max_in_flight: 1 })).status).toBe(201);
    // Sealed under another key, say: its authentication tag no longer matches.
    await mq.pool.query(
      `UPDATE queue_push SET secret_sealed = regexp_replace(secret_sealed, '^([^.]*)\\.(.)', '\\1.' || CASE WHEN substr(split_part(secret_sealed, '.', 2), 1, 1) = 'A' THEN 'B' ELSE 'A' END)
        WHERE queue_name = 'unsealable-q'`,
    );
    await mq.broker.core.pushWorker.refresh();
    const first = await publish('unsealable');
    const second = await publish('unsealable');
    await eventually(async () => (await statusOf(mq, first))?.status === 'DEAD' && (await statusOf(mq, second))?.status === 'DEAD', 'both dead by their nacks');
    const { rows } = await mq.pool.query(`SELECT id, dead_reason, nack_reason FROM message_dead WHERE queue_name = 'unsealable-q' ORDER BY seq`);
    expect(rows).toEqual([
      { id: first, dead_reason: 'RETRIES_EXHAUSTED', nack_reason: expect.stringMatching(/^push request could not be made \(.+\)$/) },
      { id: second, dead_reason: 'RETRIES_EXHAUSTED', nack_reason: expect.stringMatching(/^push request could not be made \(.+\)$/) },
    ]);
    expect(receiver.received.filter((request) => request.path === '/unsealable')).toEqual([]);
  });

  it('a header the HTTP client refuses ends the POST as unsendable, with the code and not the value, and nothing is sent', async () => {
    const target = { url: new URL(`${receiver.url}/refused-header`), address: '127.0.0.1', family: 4 };
    const outcome = await post(target, { tracestate: 'vendor=a\r\nx-injected: 1' }, '{}', 5_000);
    expect(outcome).toEqual({ failure: 'unsendable', cause: 'ERR_INVALID_CHAR' });
    await expect(post(target, {}, '{}', 5_000)).resolves.toEqual({ status: 200 });
    expect(receiver.received.filter((request) => request.path === '/refused-header')).toHaveLength(1);
  });
});
