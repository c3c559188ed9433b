import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { statementsDuring } from '../helpers/statements.js';
import { openSocket, refusalOf, type HandshakeRefused, type TestSocket } from './support.js';

const isCredentialLookup = (sql: string) => /\b(ws_ticket|client|dashboard_session)\b/.test(sql);

function expectTooMany(refusal: HandshakeRefused) {
  expect(refusal.status).toBe(429);
  expect(JSON.parse(refusal.body)).toEqual({ status: 429, code: 'rate_limited', message: expect.any(String), errors: null, response_body: null });
  expect(Number(refusal.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

async function closeAll(sockets: TestSocket[]) {
  for (const socket of sockets) {
    socket.ws.close();
    await socket.closed;
  }
}

describe('WebSocket handshakes and the HTTP rate limit', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker({
      listen: true,
      env: {
        MINIQUEUE_RATE_LIMIT_PER_SECOND: '0.2',
        MINIQUEUE_RATE_LIMIT_BURST: '4',
        MINIQUEUE_RATE_LIMIT_ANONYMOUS_PER_SECOND: '0.2',
        MINIQUEUE_RATE_LIMIT_ANONYMOUS_BURST: '5',
      },
    });
  });
  afterAll(() => mq?.stop());

  it("take from the credential's own bucket, the one its HTTP requests use", async () => {
    const key = await mq.clientKey('socket-heavy', ['view']);
    expect((await mq.get('/api/v1/topics', key)).status).toBe(200);
    expect((await mq.get('/api/v1/topics', key)).status).toBe(200);
    const sockets = [await openSocket(mq, '/ws/monitor', { key }), await openSocket(mq, '/ws/monitor', { key })];
    // The burst of 4 is spent: by two requests and two handshakes.
    expectTooMany(await refusalOf(mq, '/ws/monitor', { key }));
    expect((await mq.get('/api/v1/topics', key)).status).toBe(429);
    // Another credential has its own bucket.
    const other = await openSocket(mq, '/ws/monitor', { key: mq.adminKey });
    await closeAll([...sockets, other]);
  });

  it('refuse an address with 429, before any database lookup, once its failed handshakes are spent', async () => {
    const failures: number[] = [];
    for (let i = 0; i < 5; i += 1) failures.push((await refusalOf(mq, '/ws/monitor', { key: `mq_not-a-key-${i}` })).status);
    expect(failures).toEqual([401, 401, 401, 401, 401]);
    let refusal!: HandshakeRefused;
    const statements = await statementsDuring(async () => {
      refusal = await refusalOf(mq, '/ws/monitor?ticket=wst_made-up-ticket');
    });
    expectTooMany(refusal);
    // The broker's background services (socket registry clean-up, the dispatcher) may run meanwhile;
    // what must not run is a lookup of the handshake's credential.
    expect(statements.filter(isCredentialLookup)).toEqual([]);
  });
});

describe('open WebSockets per credential', () => {
  let mq: TestBroker;
  let key: string;
  beforeAll(async () => {
    mq = await startTestBroker({ listen: true, env: { MINIQUEUE_WS_MAX_SOCKETS_PER_CREDENTIAL: '3' } });
    await topology(mq, 'orders', [{ name: 'email' }]);
    key = await mq.clientKey('many-sockets', ['consume:email', 'view']);
  });
  afterAll(() => mq?.stop());

  it('are capped (MINIQUEUE_WS_MAX_SOCKETS_PER_CREDENTIAL), consumers and monitors together', async () => {
    const held = [
      await openSocket(mq, '/ws/consume?queue=email', { key }),
      await openSocket(mq, '/ws/consume?queue=email', { key }),
      await openSocket(mq, '/ws/monitor', { key }),
    ];
    expectTooMany(await refusalOf(mq, '/ws/consume?queue=email', { key }));
    expectTooMany(await refusalOf(mq, '/ws/monitor', { key }));
    // The refused ones joined no rotation.
    const { rows } = await mq.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM ws_consumer');
    expect(rows[0].n).toBe(2);
    // Other credentials are not affected.
    const admin = await openSocket(mq, '/ws/monitor', { key: mq.adminKey });

    // A socket that closes frees its place.
    held[0].ws.close();
    await held[0].closed;
    const again = await openSocket(mq, '/ws/monitor', { key });
    await closeAll([...held.slice(1), admin, again]);
  });

  it('are counted even while handshakes are in flight, so a burst cannot overshoot the cap', async () => {
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => openSocket(mq, '/ws/monitor', { key })));
    const opened = results.filter((result) => result.status === 'fulfilled').map((result) => (result as PromiseFulfilledResult<TestSocket>).value);
    expect(opened).toHaveLength(3);
    for (const result of results) if (result.status === 'rejected') expectTooMany(result.reason as HandshakeRefused);
    await closeAll(opened);
  });
});
