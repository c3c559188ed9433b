import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { postHead, rawExchange, sleep } from '../helpers/rawSocket.js';

/**
 * A client that connects and then sends slowly, or stops, holds a socket and a request for as
 * long as the server lets it (slowloris). Every phase of a request has a bound it cannot stretch
 * by trickling: these run with short ones (headers 1 s, whole request 2 s, idle keep-alive 1 s).
 */
const HEADERS_S = 1;
const REQUEST_S = 2;
const KEEP_ALIVE_S = 1;
// Node checks the header and request bounds once a second; the rest is scheduling slack.
const SLACK_MS = 2_000;

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({
    listen: true,
    env: {
      MINIQUEUE_HTTP_HEADERS_TIMEOUT_SECONDS: String(HEADERS_S),
      MINIQUEUE_HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_S),
      MINIQUEUE_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: String(KEEP_ALIVE_S),
    },
  });
  await topology(mq, 'slow', [{ name: 'slow-q' }]);
});
afterAll(() => mq.stop());

const GIVE_UP_MS = 8_000;

/** Writes `text` one byte every `everyMs` until the socket is closed. */
async function trickle(socket: import('node:net').Socket, text: string, everyMs: number) {
  for (const byte of text) {
    if (socket.destroyed || !socket.writable) return;
    socket.write(byte);
    await sleep(everyMs);
  }
}

const publishHead = (length: number) =>
  postHead('/api/v1/topics/slow/messages', {
    authorization: `Bearer ${mq.adminKey}`,
    'content-type': 'application/json',
    'content-length': String(length),
  });

const openConnections = () =>
  new Promise<number>((resolve, reject) => mq.broker.server.listener.getConnections((error, count) => (error ? reject(error) : resolve(count))));

describe('slow clients are cut off', () => {
  it('a connection that sends nothing is closed after the header timeout', async () => {
    const exchange = await rawExchange(mq.url, () => undefined, GIVE_UP_MS);
    expect(exchange.closedAfterMs).toBeDefined();
    expect(exchange.closedAfterMs).toBeLessThan(HEADERS_S * 1000 + SLACK_MS);
  });

  it('headers trickled a byte at a time are cut off at the header timeout', async () => {
    const head = `GET /api/v1/topics HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    const exchange = await rawExchange(mq.url, (socket) => trickle(socket, head, 100), GIVE_UP_MS);
    expect(exchange.closedAfterMs).toBeLessThan(HEADERS_S * 1000 + SLACK_MS);
    expect(exchange.status).not.toBe(200);
  });

  it('a body trickled a byte at a time is cut off at the request timeout, and nothing is stored', async () => {
    const body = JSON.stringify({ payload: 'x'.repeat(300) });
    const exchange = await rawExchange(
      mq.url,
      async (socket) => {
        socket.write(publishHead(body.length));
        await trickle(socket, body, 100);
      },
      GIVE_UP_MS,
    );
    expect(exchange.closedAfterMs).toBeLessThan(REQUEST_S * 1000 + SLACK_MS);
    expect(exchange.status).not.toBe(201);
    const { rows } = await mq.pool.query('SELECT count(*)::int AS n FROM message');
    expect(rows[0].n).toBe(0);
  });

  it('a body that stops halfway is cut off at the request timeout', async () => {
    const body = JSON.stringify({ payload: 'x'.repeat(300) });
    const exchange = await rawExchange(mq.url, (socket) => void socket.write(publishHead(body.length) + body.slice(0, 100)), GIVE_UP_MS);
    expect(exchange.closedAfterMs).toBeLessThan(REQUEST_S * 1000 + SLACK_MS);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const exchange = await rawExchange(mq.url, (socket) => void socket.write('GET /actuator/info HTTP/1.1\r\nHost: localhost\r\n\r\n'), GIVE_UP_MS);
    expect(exchange.status).toBe(200);
    expect(exchange.closedAfterMs).toBeLessThan(KEEP_ALIVE_S * 1000 + SLACK_MS);
  });

  it('leaves no connection behind', async () => {
    await sleep(200);
    expect(await openConnections()).toBe(0);
  });
});

describe('what the bounds do not cut', () => {
  it('a long poll waits longer than the request timeout: the request was received in time', async () => {
    const started = Date.now();
    const response = await fetch(`${mq.url}/api/v1/queues/slow-q/consume?wait_seconds=${REQUEST_S + 1}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mq.adminKey}` },
    });
    expect(response.status).toBe(204);
    expect(Date.now() - started).toBeGreaterThanOrEqual((REQUEST_S + 1) * 1000 - 100);
  });

  it('a client that sends at a normal pace is served', async () => {
    const body = JSON.stringify({ payload: 'steady' });
    const exchange = await rawExchange(
      mq.url,
      async (socket) => {
        socket.write(publishHead(body.length));
        await trickle(socket, body, 20);
      },
      3_000,
    );
    expect(exchange.status).toBe(201);
  });
});
