import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { openStream, publishFrame } from '../stream/support.js';

/**
 * W3C Trace Context: a receiver never fails a request over its trace headers. An invalid
 * traceparent is ignored (and its tracestate with it: "if the vendor failed to parse traceparent,
 * it MUST NOT attempt to parse tracestate"); a tracestate that is not the specification's list of
 * key=value members is discarded. So a publish with either is stored, without what is invalid.
 */
const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** Values no HTTP client may send as a header, and values that break the tracestate grammar. */
const INVALID_TRACESTATES = [
  ['a newline', 'vendor=a\nb'],
  ['a carriage return', 'vendor=a\r\nx-injected: 1'],
  ['a control character', 'vendor=a\u0001b'],
  ['a tab in a value', 'vendor=a\tb'],
  ['a character outside Latin-1', 'vendor=\u20ac'],
  ['a Latin-1 character outside ASCII', 'vendor=\u00e9'],
  ['an upper-case key', 'Vendor=1'],
  ['a member without "="', 'vendor'],
  ['a value with "="', 'vendor=a=b'],
  ['a member with an empty value', 'a=1,vendor=,b=2'],
  ['more than 32 members', Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(',')],
  ['a key of 257 characters', `${'k'.repeat(257)}=v`],
] as const;

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'bad-trace', [{ name: 'bad-trace' }]);
});
afterAll(() => mq?.stop());

const storedHeaders = async (id: string) => (await mq.pool.query('SELECT headers FROM message WHERE id = $1', [id])).rows[0]?.headers;

describe('a publish over HTTP', () => {
  it.each(INVALID_TRACESTATES)("with %s in a message's tracestate is stored without it", async (_what, tracestate) => {
    const published = await mq.post('/api/v1/topics/bad-trace/messages', { payload: 'p', headers: { traceparent: PARENT, tracestate, a: '1' } }, mq.adminKey);
    expect(published.status, JSON.stringify(published.body)).toBe(201);
    expect(await storedHeaders(published.body.message_ids[0])).toEqual({ traceparent: PARENT, a: '1' });
  });

  it('keeps a valid tracestate, with optional whitespace and empty members as the specification allows', async () => {
    for (const tracestate of ['rojo=00f067aa0ba902b7,congo=t61rcWkgMzE', 'a=1 , ,b=2', 'tenant@system=x', '0key= leading space', '']) {
      const published = await mq.post('/api/v1/topics/bad-trace/messages', { payload: 'p', headers: { traceparent: PARENT, tracestate } }, mq.adminKey);
      expect(published.status).toBe(201);
      expect(await storedHeaders(published.body.message_ids[0]), JSON.stringify(tracestate)).toEqual({ traceparent: PARENT, tracestate });
    }
  });

  it('with an invalid traceparent of its own drops it and its tracestate, and takes the request’s context instead', async () => {
    const own = await mq.post('/api/v1/topics/bad-trace/messages', { payload: 'p', headers: { traceparent: 'garbage', tracestate: 'vendor=1' } }, mq.adminKey);
    expect(own.status).toBe(201);
    expect(await storedHeaders(own.body.message_ids[0])).toEqual({});

    const withRequest = await mq.request('POST', '/api/v1/topics/bad-trace/messages', {
      key: mq.adminKey,
      headers: { traceparent: OTHER, tracestate: 'req=1' },
      body: { payload: 'p', headers: { traceparent: 'garbage', tracestate: 'vendor=1' } },
    });
    expect(withRequest.status).toBe(201);
    expect(await storedHeaders(withRequest.body.message_ids[0])).toEqual({ traceparent: OTHER, tracestate: 'req=1' });
  });

  it('with a tracestate but no traceparent stores no tracestate', async () => {
    const published = await mq.post('/api/v1/topics/bad-trace/messages', { payload: 'p', headers: { tracestate: 'vendor=1' } }, mq.adminKey);
    expect(published.status).toBe(201);
    expect(await storedHeaders(published.body.message_ids[0])).toEqual({});
  });

  it("with an invalid tracestate in the request's headers stores the traceparent alone", async () => {
    for (const tracestate of ['Vendor=1', 'vendor=\u00e9']) {
      const published = await mq.request('POST', '/api/v1/topics/bad-trace/messages', {
        key: mq.adminKey,
        headers: { traceparent: PARENT, tracestate },
        body: { payload: 'p' },
      });
      expect(published.status).toBe(201);
      expect(await storedHeaders(published.body.message_ids[0])).toEqual({ traceparent: PARENT });
    }
  });

  it('in a batch stores each item without its invalid tracestate', async () => {
    const batch = await mq.post(
      '/api/v1/topics/bad-trace/messages/batch',
      {
        messages: [
          { payload: 'bad', headers: { traceparent: PARENT, tracestate: 'v=a\nb' } },
          { payload: 'good', headers: { traceparent: PARENT, tracestate: 'v=1' } },
        ],
      },
      mq.adminKey,
    );
    expect(batch.status).toBe(201);
    const ids = batch.body.results.map((result: { message_ids: string[] }) => result.message_ids[0]);
    expect(await storedHeaders(ids[0])).toEqual({ traceparent: PARENT });
    expect(await storedHeaders(ids[1])).toEqual({ traceparent: PARENT, tracestate: 'v=1' });
  });
});

describe('a publish over a stream', () => {
  it.each(INVALID_TRACESTATES)("with %s in a message's tracestate is confirmed and stored without it", async (_what, tracestate) => {
    const stream = await openStream(mq, { key: mq.adminKey });
    try {
      stream.send(publishFrame(1, 'bad-trace', 'p', { headers: { traceparent: PARENT, tracestate, a: '1' } }));
      const answer = await stream.next((frame) => frame.seq === 1 && (frame.type === 'confirm' || frame.type === 'reject'));
      expect(answer.type, JSON.stringify(answer)).toBe('confirm');
      expect(await storedHeaders(answer.message_ids[0])).toEqual({ traceparent: PARENT, a: '1' });
    } finally {
      await stream.close();
    }
  });

  it('with an invalid traceparent drops it and its tracestate', async () => {
    const stream = await openStream(mq, { key: mq.adminKey });
    try {
      stream.send(publishFrame(1, 'bad-trace', 'p', { headers: { traceparent: `${PARENT}x`, tracestate: 'vendor=1', a: '1' } }));
      const answer = await stream.next((frame) => frame.seq === 1 && (frame.type === 'confirm' || frame.type === 'reject'));
      expect(answer.type).toBe('confirm');
      expect(await storedHeaders(answer.message_ids[0])).toEqual({ a: '1' });
    } finally {
      await stream.close();
    }
  });
});
