import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { openSocket, refusalOf, type HandshakeRefused } from './support.js';

let mq: TestBroker;
let other: TestBroker;
let consumerKey: string;
let viewerKey: string;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { CORS_ALLOWED_ORIGINS: 'https://dash.example.com' } });
  other = await startTestBroker({ listen: true, databaseUrl: mq.databaseUrl, adminKey: mq.adminKey });
  await topology(mq, 'orders', [{ name: 'email' }, { name: 'stock' }]);
  consumerKey = await mq.clientKey('mailer', ['consume:email']);
  viewerKey = await mq.clientKey('viewer', ['view']);
});
afterAll(async () => {
  await other?.stop();
  await mq?.stop();
});

async function ticket(key: string, via = mq): Promise<string> {
  const response = await via.post('/api/v1/auth/ws-ticket', undefined, key);
  expect(response.status).toBe(200);
  return response.body.ticket;
}

function expectRefusal(refusal: HandshakeRefused, status: number) {
  expect(refusal.status).toBe(status);
  expect(JSON.parse(refusal.body)).toEqual({ status, code: expect.stringMatching(/^[a-z_]+$/), message: expect.any(String), errors: refusal.status === 400 ? expect.any(Array) : null, response_body: null });
}

describe('WebSocket handshake', () => {
  it('accepts a Bearer key with the scope, and a ticket issued by another instance', async () => {
    const byKey = await openSocket(mq, '/ws/consume?queue=Email', { key: consumerKey });
    const byTicket = await openSocket(mq, `/ws/monitor?ticket=${await ticket(viewerKey, other)}`, {
      origin: 'https://dash.example.com',
    });
    for (const socket of [byKey, byTicket]) {
      socket.ws.close();
      await socket.closed;
    }
  });

  it('refuses a missing or bad credential with 401', async () => {
    expectRefusal(await refusalOf(mq, '/ws/monitor'), 401);
    expectRefusal(await refusalOf(mq, '/ws/monitor', { key: 'mq_not-a-real-key' }), 401);
    expectRefusal(await refusalOf(mq, '/ws/monitor?ticket=wst_made-up'), 401);
    expectRefusal(await refusalOf(mq, '/ws/monitor?ticket=mq_wrong-kind'), 401);
    expect((await refusalOf(mq, '/ws/monitor')).headers['www-authenticate']).toBe('Bearer');
  });

  it('lets a ticket in once, on whichever instance, and refuses it the second time with 401', async () => {
    const single = await ticket(viewerKey);
    const first = await openSocket(other, `/ws/monitor?ticket=${single}`);
    expectRefusal(await refusalOf(mq, `/ws/monitor?ticket=${single}`), 401);
    expectRefusal(await refusalOf(other, `/ws/monitor?ticket=${single}`), 401);
    first.ws.close();
  });

  it('refuses a credential without the scope with 403', async () => {
    expectRefusal(await refusalOf(mq, '/ws/consume?queue=stock', { key: consumerKey }), 403);
    expectRefusal(await refusalOf(mq, '/ws/monitor', { key: consumerKey }), 403);
    expectRefusal(await refusalOf(mq, '/ws/consume?queue=email', { key: viewerKey }), 403);
    expectRefusal(await refusalOf(mq, `/ws/consume?queue=stock&ticket=${await ticket(consumerKey)}`), 403);
  });

  it('refuses a browser on a foreign origin with 403, before the ticket is used', async () => {
    const unused = await ticket(viewerKey);
    expectRefusal(await refusalOf(mq, `/ws/monitor?ticket=${unused}`, { origin: 'https://evil.example.org' }), 403);
    expectRefusal(await refusalOf(mq, '/ws/monitor', { key: viewerKey, origin: 'http://localhost:5173' }), 403);
    const socket = await openSocket(mq, `/ws/monitor?ticket=${unused}`, { origin: 'https://dash.example.com' });
    socket.ws.close();
  });

  it('accepts a page served by the broker itself (same origin), whatever CORS_ALLOWED_ORIGINS says', async () => {
    const own = new URL(mq.url).origin;
    const socket = await openSocket(mq, `/ws/monitor?ticket=${await ticket(viewerKey)}`, { origin: own });
    socket.ws.close();
    const lookalike = own.replace('127.0.0.1', '127.0.0.1.evil.example');
    expectRefusal(await refusalOf(mq, `/ws/monitor?ticket=${await ticket(viewerKey)}`, { origin: lookalike }), 403);
  });

  it('answers unknown endpoints and queues with 404, a bad queue name with 400', async () => {
    expectRefusal(await refusalOf(mq, '/ws/elsewhere', { key: viewerKey }), 404);
    expectRefusal(await refusalOf(mq, '/ws/consume?queue=nope', { key: mq.adminKey }), 404);
    expectRefusal(await refusalOf(mq, '/ws/consume', { key: mq.adminKey }), 400);
    expectRefusal(await refusalOf(mq, '/ws/consume?queue=bad%20name', { key: mq.adminKey }), 400);
    const { rows } = await mq.pool.query('SELECT count(*)::int AS n FROM ws_consumer');
    expect(rows[0].n).toBe(0);
  });
});
