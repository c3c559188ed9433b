import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

/**
 * PostgreSQL cannot store NUL in text or jsonb, and a lone UTF-16 surrogate is not Unicode at all:
 * such text is refused up front, naming the field, instead of failing in the database (a 500 whose
 * log line quoted the start of the message's headers).
 */
const logs: string[] = [];
let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ logs });
  await topology(mq, 'text', [{ name: 'text-q' }]);
});
afterAll(() => mq.stop());

const MARK = 'do-not-log-me';
const fieldsOf = (body: { errors: { field: string }[] | null }) => (body.errors ?? []).map((e) => e.field);

describe('text that cannot be stored is a 400 naming the field', () => {
  it.each([
    ['NUL in the payload', { payload: `${MARK}\u0000` }, 'payload'],
    ['a lone surrogate in the payload', { payload: `${MARK}\ud800` }, 'payload'],
    ['NUL in a header value', { payload: 'x', headers: { trace: `${MARK}\u0000` } }, 'headers.trace'],
    ['a lone surrogate in a header value', { payload: 'x', headers: { trace: `${MARK}\udc00` } }, 'headers.trace'],
    ['NUL in a header name', { payload: 'x', headers: { [`${MARK}\u0000`]: 'v' } }, 'headers'],
    ['a lone surrogate in a header name', { payload: 'x', headers: { [`${MARK}\ud800`]: 'v' } }, 'headers'],
  ])('%s', async (_, body, field) => {
    const response = await mq.post('/api/v1/topics/text/messages', body, mq.adminKey);
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual([field]);
  });

  it('NUL in a batch idempotency key', async () => {
    const response = await mq.post(
      '/api/v1/topics/text/messages/batch',
      { messages: [{ payload: 'x' }, { payload: 'y', idempotency_key: `${MARK}\u0000` }] },
      mq.adminKey,
    );
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['messages.1.idempotency_key']);
  });

  it('stored nothing, and logged nothing of the content', async () => {
    const { rows } = await mq.pool.query('SELECT count(*)::int AS n FROM message');
    expect(rows[0].n).toBe(0);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((line) => line.includes(MARK))).toEqual([]);
    expect(logs.filter((line) => /"level":50/.test(line))).toEqual([]);
  });

  it('accepts every other character, astral ones and empty header names included', async () => {
    const body = { payload: 'é 😀 \u0001 \uffff', headers: { '': 'empty name', 'emoji😀': '\ud83d\ude00' } };
    const response = await mq.post('/api/v1/topics/text/messages', body, mq.adminKey);
    expect(response.status).toBe(201);
    const got = await mq.post('/api/v1/queues/text-q/consume', undefined, mq.adminKey);
    expect(got.body.payload).toBe(body.payload);
    expect(got.body.headers).toEqual(body.headers);
  });
});
