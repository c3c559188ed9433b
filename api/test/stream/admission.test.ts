import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_PATH, STREAM_SUBPROTOCOL } from '@miniqueue/sdk';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { statusOf, topology } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { openSocket, refusalOf, ticket, type HandshakeRefused, type SocketOptions, type TestSocket } from '../realtime/support.js';
import { openStream, publishFrame } from './support.js';

/**
 * A stream is let in as every socket is (realtime/admission.ts): origin rules, the per-credential
 * socket cap shared with /ws/consume and /ws/monitor, and the credential's rate limit; and it ends
 * with its key, as they do. These hold the stream's own handshake to that.
 */
const withProtocol = (options: SocketOptions = {}): SocketOptions => ({ ...options, protocols: [STREAM_SUBPROTOCOL] });
const stream = (mq: TestBroker, options: SocketOptions = {}, query = '') => openSocket(mq, `${STREAM_PATH}${query}`, withProtocol(options));
const streamRefusal = (mq: TestBroker, options: SocketOptions = {}, query = '') => refusalOf(mq, `${STREAM_PATH}${query}`, withProtocol(options));

function expectRefused(refusal: HandshakeRefused, status: number, code: string) {
  expect(refusal.status).toBe(status);
  expect(JSON.parse(refusal.body)).toMatchObject({ status, code });
}

async function closeAll(sockets: TestSocket[]) {
  for (const socket of sockets) {
    socket.ws.close();
    await socket.closed;
  }
}

describe('/ws/v1/stream: origins', () => {
  let mq: TestBroker;
  let key: string;
  beforeAll(async () => {
    mq = await startTestBroker({ listen: true, env: { CORS_ALLOWED_ORIGINS: 'https://dash.example.com' } });
    key = await mq.clientKey('streamer', ['view']);
  });
  afterAll(() => mq?.stop());

  it('refuses a browser on a foreign origin with 403 before its ticket is used, and admits an allowed one and the broker’s own', async () => {
    const unused = await ticket(mq, key);
    expectRefused(await streamRefusal(mq, { origin: 'https://evil.example.org' }, `?ticket=${unused}`), 403, 'origin_not_allowed');
    expectRefused(await streamRefusal(mq, { key, origin: 'http://localhost:5173' }), 403, 'origin_not_allowed');
    // The refused handshake left the ticket unused: an allowed origin gets in with it.
    const allowed = await stream(mq, { origin: 'https://dash.example.com' }, `?ticket=${unused}`);
    const own = await stream(mq, { origin: new URL(mq.url).origin }, `?ticket=${await ticket(mq, key)}`);
    await closeAll([allowed, own]);
  });
});

describe('/ws/v1/stream: sockets per credential and the rate limit', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker({
      listen: true,
      env: { MINIQUEUE_WS_MAX_SOCKETS_PER_CREDENTIAL: '3', MINIQUEUE_RATE_LIMIT_PER_SECOND: '0.2', MINIQUEUE_RATE_LIMIT_BURST: '6' },
    });
    await topology(mq, 'orders', [{ name: 'email' }]);
  });
  afterAll(() => mq?.stop());

  it('counts streams with consumer and monitor sockets against one cap, and frees a place when one closes', async () => {
    const key = await mq.clientKey('capped', ['consume:email', 'view']);
    const held = [await stream(mq, { key }), await stream(mq, { key }), await openSocket(mq, '/ws/monitor', { key })];
    const refusal = await streamRefusal(mq, { key });
    expectRefused(refusal, 429, 'rate_limited');
    expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectRefused(await refusalOf(mq, '/ws/consume?queue=email', { key }), 429, 'rate_limited');
    // Another credential has places of its own.
    const other = await stream(mq, { key: mq.adminKey });
    held[0].ws.close();
    await held[0].closed;
    const again = await stream(mq, { key });
    await closeAll([...held.slice(1), other, again]);
  });

  it('takes each handshake from the credential’s own bucket, the one its HTTP requests use', async () => {
    const key = await mq.clientKey('bucketed', ['view']);
    for (let i = 0; i < 4; i += 1) expect((await mq.get('/api/v1/topics', key)).status).toBe(200);
    const opened = [await stream(mq, { key }), await stream(mq, { key })];
    // The burst of 6 is spent: by four requests and two handshakes (the cap of 3 is not reached).
    expectRefused(await streamRefusal(mq, { key }), 429, 'rate_limited');
    await closeAll(opened);
  });
});

describe('/ws/v1/stream: a rotated key', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker({ listen: true });
    await topology(mq, 'events', [{ name: 'audit' }]);
  });
  afterAll(() => mq?.stop());

  it('closes the streams opened with the old key, gives back what they held at once, and lets the new key in', async () => {
    const key = await mq.clientKey('rotating-streamer', ['consume:audit', 'publish:events']);
    const s = await openStream(mq, { key });
    s.send({ type: 'subscribe', sub: 's', queue: 'audit', prefetch: 5 });
    await s.next((frame) => frame.type === 'subscribed');
    s.send(publishFrame(1, 'events', 'held'));
    const delivered = await s.next((frame) => frame.type === 'deliver');

    const rotated = await mq.post('/api/v1/clients/rotating-streamer/rotate', undefined, mq.adminKey);
    expect(rotated.status).toBe(200);
    expect((await s.closed).code).toBe(1008);
    await eventually(async () => (await statusOf(mq, delivered.message.message_id))?.status === 'PENDING', 'released');
    await expect(openStream(mq, { key })).rejects.toMatchObject({ status: 401 });
    await expect(openStream(mq, { key, query: `resume=${s.welcome.resume_token}` })).rejects.toMatchObject({ status: 401 });
    const renewed = await openStream(mq, { key: rotated.body.api_key });
    await renewed.close();
  });
});
