import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { openStream } from '../stream/support.js';

/**
 * Trace context travels with messages, so its values pass through the broker on every publish:
 * none of them (nor a baggage entry, nor the payload) may reach a log line, at any level, whether
 * the request is stored, refused or malformed.
 */
const logs: string[] = [];
let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ logs, listen: true });
  await topology(mq, 'logged', [{ name: 'logged' }]);
});
afterAll(() => mq?.stop());

const MARKS = {
  traceId: '5c0ffee5c0ffee5c0ffee5c0ffee5c0f',
  tracestate: 'tracestatemark',
  baggage: 'baggagemark',
  payload: 'payloadmark',
};
const headers = {
  traceparent: `00-${MARKS.traceId}-00f067aa0ba902b7-01`,
  tracestate: `vendor=${MARKS.tracestate}`,
  baggage: `tenant=${MARKS.baggage}`,
};

describe('trace context never reaches the logs', () => {
  it('on stored, refused and malformed publishes, over HTTP and the stream', async () => {
    const publish = (body: unknown, path = '/api/v1/topics/logged/messages') => mq.request('POST', path, { body, key: mq.adminKey, headers });
    expect((await publish({ payload: MARKS.payload })).status).toBe(201);
    expect(
      (await publish({ messages: [{ payload: MARKS.payload }, { payload: MARKS.payload, headers }] }, '/api/v1/topics/logged/messages/batch')).status,
    ).toBe(201);
    // Refused: an unknown field, an unknown topic, a payload that cannot be stored.
    expect((await publish({ payload: MARKS.payload, extra: headers })).status).toBe(400);
    expect((await publish({ payload: MARKS.payload }, '/api/v1/topics/missing/messages')).status).toBe(404);
    expect((await publish({ payload: `${MARKS.payload}\u0000`, headers })).status).toBe(400);

    const stream = await openStream(mq, { key: mq.adminKey });
    stream.send([
      { type: 'publish', seq: 1, topic: 'logged', payload: MARKS.payload, headers },
      { type: 'publish', seq: 2, topic: 'missing', payload: MARKS.payload, headers },
      { type: 'publish', seq: 3, topic: 'logged', payload: MARKS.payload, headers: { ...headers, bad: 5 } },
    ]);
    await stream.collect((frame) => (frame.type === 'confirm' || frame.type === 'reject' || frame.type === 'error') && frame.seq >= 1, 3);
    await stream.close();

    // Delivered with its context, so the consumer path has handled the values too.
    const consumed = await mq.post('/api/v1/queues/logged/consume', undefined, mq.adminKey);
    expect(consumed.body.headers).toMatchObject({ traceparent: headers.traceparent, tracestate: headers.tracestate });

    expect(logs.length).toBeGreaterThan(0);
    for (const mark of Object.values(MARKS)) expect(logs.filter((line) => line.includes(mark))).toEqual([]);
  });
});
