import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceHeadersOf } from '../../src/tracing/traceContext.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { statusOf, topology } from '../helpers/fixtures.js';
import { startReceiver, type Receiver } from '../push/receiver.js';
import { PUSH_ENV } from '../push/support.js';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('trace context in HTTP headers', () => {
  it('is taken only from a valid traceparent, with a tracestate of at most 512 characters', () => {
    expect(traceHeadersOf({ traceparent: PARENT, tracestate: 'vendor=1' })).toEqual({ traceparent: PARENT, tracestate: 'vendor=1' });
    expect(traceHeadersOf({ traceparent: PARENT, tracestate: `v=${'x'.repeat(600)}` })).toEqual({ traceparent: PARENT });
    for (const invalid of [
      undefined,
      'garbage',
      PARENT.toUpperCase(),
      `ff${PARENT.slice(2)}`, // version ff is forbidden
      '00-00000000000000000000000000000000-00f067aa0ba902b7-01', // all-zero trace id
      '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01', // all-zero span id
    ]) {
      expect(traceHeadersOf({ traceparent: invalid })).toBeUndefined();
    }
  });
});

// The broker here exports nothing (no OTEL_* variables): the context is carried as it came.
describe('a message carries its trace context', () => {
  let mq: TestBroker;
  let receiver: Receiver;
  beforeAll(async () => {
    mq = await startTestBroker({ env: PUSH_ENV });
    receiver = await startReceiver();
    await topology(mq, 'traced', [{ name: 'traced' }]);
    await topology(mq, 'traced-push', [{ name: 'traced-push' }]);
  });
  afterAll(async () => {
    await receiver?.close();
    await mq?.stop();
  });

  const publish = (headers: Record<string, string>, body: Record<string, unknown> = { payload: 'p' }, topic = 'traced') =>
    mq.request('POST', `/api/v1/topics/${topic}/messages`, { body, key: mq.adminKey, headers });
  const consume = async () => (await mq.post('/api/v1/queues/traced/consume', undefined, mq.adminKey)).body;

  it('from the request headers to the consumer; an invalid traceparent is ignored; the message’s own wins', async () => {
    expect((await publish({ traceparent: PARENT, tracestate: 'vendor=1' })).status).toBe(201);
    expect((await consume()).headers).toEqual({ traceparent: PARENT, tracestate: 'vendor=1' });

    expect((await publish({ traceparent: 'not-a-traceparent' }, { payload: 'p', headers: { a: '1' } })).status).toBe(201);
    expect((await consume()).headers).toEqual({ a: '1' });

    expect((await publish({ traceparent: PARENT }, { payload: 'p', headers: { traceparent: OTHER } })).status).toBe(201);
    expect((await consume()).headers).toEqual({ traceparent: OTHER });
  });

  it('on every item of a batch that names none of its own', async () => {
    const batch = await mq.request('POST', '/api/v1/topics/traced/messages/batch', {
      key: mq.adminKey,
      headers: { traceparent: PARENT },
      body: { messages: [{ payload: 'one' }, { payload: 'two', headers: { traceparent: OTHER } }] },
    });
    expect(batch.status).toBe(201);
    const received = (await mq.post('/api/v1/queues/traced/receive', { max_messages: 10 }, mq.adminKey)).body.messages;
    expect(Object.fromEntries(received.map((m: { payload: string; headers: Record<string, string> }) => [m.payload, m.headers.traceparent]))).toEqual({
      one: PARENT,
      two: OTHER,
    });
  });

  it('is not part of what an idempotent repeat must match: a retry with a new span is the same publish', async () => {
    const first = await publish({ traceparent: PARENT, 'idempotency-key': 'traced-once' });
    const retry = await publish({ traceparent: OTHER, 'idempotency-key': 'traced-once' });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ duplicate: true, message_ids: first.body.message_ids });
    // Other headers still are: a repeat with other content is refused.
    const changed = await publish({ traceparent: PARENT, 'idempotency-key': 'traced-once' }, { payload: 'p', headers: { a: '2' } });
    expect(changed.status).toBe(409);
    await consume();
  });

  it('to a push endpoint as the traceparent header of the pushed request', async () => {
    expect((await mq.request('PUT', '/api/v1/queues/traced-push/push', { body: { url: `${receiver.url}/hook` }, key: mq.adminKey })).status).toBe(201);
    const published = await publish({ traceparent: PARENT, tracestate: 'vendor=1' }, { payload: 'pushed' }, 'traced-push');
    const [id] = published.body.message_ids as string[];
    await eventually(async () => (await statusOf(mq, id))?.status === 'ACKED', 'the pushed message acked');
    const got = receiver.received.find((request) => request.headers['miniqueue-message-id'] === id);
    expect(got?.headers).toMatchObject({ traceparent: PARENT, tracestate: 'vendor=1' });
  });
});
