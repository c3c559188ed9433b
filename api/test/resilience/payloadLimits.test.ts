import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { errorLeaks, fetchClient, type FetchClient } from './support/fetchClient.js';
import { streamBody } from './support/streamBody.js';

const TOPIC = 'limits.events';
const QUEUE = 'limits-queue';
const LIMIT = 262_144;
const HUGE = 50 * 1024 * 1024;
// Socket buffers hold a few MB, the batch route reads up to 10 MiB: an exchange that ends before
// half of the body went out cannot come from a server that read all of it.
const EARLY = HUGE / 2;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');
// 3-byte characters: 87,381 × 3 = 262,143 bytes, in a string of only 87,381 UTF-16 units.
const EUROS = '€'.repeat(87_381);
// 4-byte characters (two UTF-16 units each): 65,536 × 4 = 262,144 bytes.
const EMOJI = '😀'.repeat(65_536);

let mq: TestBroker;
let api: FetchClient;
let publisher: string;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  api = fetchClient(mq.url);
  expect((await mq.post('/api/v1/topics', { name: TOPIC }, mq.adminKey)).status).toBe(201);
  expect((await mq.post('/api/v1/queues', { name: QUEUE, topic_name: TOPIC }, mq.adminKey)).status).toBe(201);
  publisher = await mq.clientKey('limits-publisher', [`publish:${TOPIC}`]);
});
afterAll(() => mq.stop());

async function storedCount(): Promise<number> {
  const { rows } = await mq.pool.query('SELECT count(*)::int AS n FROM message WHERE topic_name = $1', [TOPIC]);
  return rows[0].n;
}

function expect413(body: unknown) {
  expect(body).toMatchObject({ status: 413, code: 'payload_too_large', errors: null, response_body: null });
  expect(errorLeaks(body)).toEqual([]);
}

describe('a 50 MB body over a real socket', () => {
  const routes = [`/api/v1/topics/${TOPIC}/messages`, `/api/v1/topics/${TOPIC}/messages/batch`];
  for (const route of routes) {
    const kind = route.endsWith('batch') ? 'batch' : 'single';
    it(`with Content-Length is answered 413 before it is read (${kind})`, async () => {
      const before = await storedCount();
      const answer = await streamBody(mq.url, route, publisher, HUGE, false);
      expect(answer.status).toBe(413);
      expect413(answer.body);
      expect(answer.sentAtEnd).toBeLessThan(EARLY);
      expect(await storedCount()).toBe(before);
    });

    // Without a length the cap can only be found by reading up to it. hapi then drops the
    // connection (no 413 reaches the client), but it stops reading there: nothing is buffered.
    it(`chunked is cut off at the cap, not read to the end (${kind})`, async () => {
      const before = await storedCount();
      const answer = await streamBody(mq.url, route, publisher, HUGE, true);
      expect(answer.sentAtEnd).toBeLessThan(EARLY);
      if (answer.status !== undefined) {
        expect(answer.status).toBe(413);
        expect413(answer.body);
      }
      expect(await storedCount()).toBe(before);
    });
  }
});

describe('the payload limit counts UTF-8 bytes', () => {
  const cases: [string, string, number][] = [
    ['ASCII at the limit', 'a'.repeat(LIMIT), 201],
    ['ASCII one byte over', 'a'.repeat(LIMIT + 1), 413],
    ['3-byte characters at the limit', `${EUROS}a`, 201],
    ['3-byte characters one byte over', `${EUROS}é`, 413],
    ['4-byte characters at the limit', EMOJI, 201],
    ['4-byte characters one byte over', `${EMOJI}a`, 413],
    // Fewer UTF-16 units than the limit, more bytes: a check of string length would let it in.
    ['short string, too many bytes', `${EUROS}€`, 413],
  ];
  for (const [what, payload, status] of cases) {
    it(`${what} (${utf8(payload)} bytes) → ${status}`, async () => {
      expect(utf8(payload)).toBe(status === 201 ? LIMIT : utf8(payload));
      const before = await storedCount();
      const response = await api.request('POST', `/api/v1/topics/${TOPIC}/messages`, { key: publisher, body: { payload } });
      expect(response.status).toBe(status);
      if (status === 413) {
        expect413(response.body);
        expect(await storedCount()).toBe(before);
      } else {
        expect(await storedCount()).toBe(before + 1);
      }
    });
  }

  it('stores and delivers a payload at the limit unchanged', async () => {
    const payload = `é€a${'😀'.repeat(65_534)}ab`;
    expect(utf8(payload)).toBe(LIMIT);
    const admin = mq.adminKey;
    expect((await api.request('POST', '/api/v1/topics', { key: admin, body: { name: 'limits.roundtrip' } })).status).toBe(201);
    expect((await api.request('POST', '/api/v1/queues', { key: admin, body: { name: 'roundtrip-queue', topic_name: 'limits.roundtrip' } })).status).toBe(201);
    expect((await api.request('POST', '/api/v1/topics/limits.roundtrip/messages', { key: admin, body: { payload } })).status).toBe(201);
    const consumed = await api.request('POST', '/api/v1/queues/roundtrip-queue/consume', { key: admin });
    expect(consumed.status).toBe(200);
    expect(consumed.body.payload === payload).toBe(true);
  });
});

describe('a batch with one payload over the limit', () => {
  it('is 413 as a whole and stores nothing', async () => {
    const before = await storedCount();
    const messages = [{ payload: 'fine' }, { payload: EMOJI }, { payload: `${EUROS}é` }, { payload: 'also fine' }];
    const response = await api.request('POST', `/api/v1/topics/${TOPIC}/messages/batch`, { key: publisher, body: { messages } });
    expect(response.status).toBe(413);
    expect413(response.body);
    expect(await storedCount()).toBe(before);

    const accepted = await api.request('POST', `/api/v1/topics/${TOPIC}/messages/batch`, {
      key: publisher,
      body: { messages: [messages[0], messages[1], messages[3]] },
    });
    expect(accepted.status).toBe(201);
    expect(await storedCount()).toBe(before + 3);
  });
});
