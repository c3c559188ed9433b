import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { startTestBroker } from '../helpers/broker.js';
import { checkResponse } from '../helpers/contract.js';

const LIMITS = {
  MINIQUEUE_RATE_LIMIT_PER_SECOND: '0.5',
  MINIQUEUE_RATE_LIMIT_BURST: '3',
  MINIQUEUE_RATE_LIMIT_ANONYMOUS_PER_SECOND: '0.5',
  MINIQUEUE_RATE_LIMIT_ANONYMOUS_BURST: '2',
};

let mq: TestBroker;
let keys: { first: string; second: string };
beforeAll(async () => {
  mq = await startTestBroker({ env: LIMITS });
  // Created with the admin key, whose own bucket the tests below do not use.
  keys = { first: await mq.clientKey('first', ['view']), second: await mq.clientKey('second', ['view']) };
});
afterAll(() => mq.stop());

/** A request from a given client address (inject defaults to 127.0.0.1), checked against the contract. */
async function call(url: string, options: { key?: string; from?: string; method?: string } = {}) {
  const method = options.method ?? 'GET';
  const response = await mq.broker.server.inject({
    method,
    url,
    headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
    remoteAddress: options.from,
  });
  const type = String(response.headers['content-type'] ?? '');
  const body = type.includes('application/json') ? JSON.parse(response.payload) : response.payload;
  checkResponse(method, url, response.statusCode, body, type);
  return { status: response.statusCode, body, retryAfter: response.headers['retry-after'] };
}

describe('per credential', () => {
  it('answers 429 in the error shape with Retry-After once the burst is spent', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call('/api/v1/topics', { key: keys.first })).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await call('/api/v1/topics', { key: keys.first });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ status: 429, code: 'rate_limited', message: expect.stringMatching(/credential/), errors: null, response_body: null });
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(2);
  });

  it('keeps each credential in its own bucket, whatever address it calls from', async () => {
    expect((await call('/api/v1/topics', { key: keys.second, from: '10.0.0.9' })).status).toBe(200);
    expect((await call('/api/v1/topics', { key: keys.first, from: '10.0.0.9' })).status).toBe(429);
  });

  it('counts calls the credential is not allowed to make', async () => {
    const key = await mq.clientKey('nosy', ['view']);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await call('/api/v1/clients', { key })).status);
    expect(statuses).toEqual([403, 403, 403, 429]);
  });
});

describe('per address, on routes without a credential', () => {
  it('limits each client address separately', async () => {
    const from = '192.0.2.1';
    expect((await call('/actuator/info', { from })).status).toBe(200);
    expect((await call('/openapi.yaml', { from })).status).toBe(200);
    const limited = await call('/api/v1/auth/github/login', { from });
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThanOrEqual(1);
    expect((await call('/actuator/info', { from: '192.0.2.2' })).status).toBe(200);
  });
});

describe('switched off', () => {
  it('never answers 429', async () => {
    const open = await startTestBroker({
      databaseUrl: mq.databaseUrl,
      adminKey: mq.adminKey,
      env: { ...LIMITS, MINIQUEUE_RATE_LIMIT_ENABLED: 'false' },
    });
    try {
      for (let i = 0; i < 10; i += 1) {
        expect((await open.get('/api/v1/topics', keys.first)).status).toBe(200);
        expect((await open.get('/actuator/info')).status).toBe(200);
      }
    } finally {
      await open.stop();
    }
  });
});
