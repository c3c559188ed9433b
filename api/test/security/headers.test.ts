import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { startTestBroker } from '../helpers/broker.js';
import { originAllowed } from '../../src/auth/origins.js';

const DASHBOARD = 'https://dashboard.example.com';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker({ env: { CORS_ALLOWED_ORIGINS: `${DASHBOARD}, https://*.preview.example.com` } });
});
afterAll(() => mq.stop());

const inject = (method: string, url: string, headers: Record<string, string> = {}) => mq.broker.server.inject({ method, url, headers });

describe('CORS', () => {
  it('answers a preflight from an allowed origin, headers of the API included', async () => {
    const response = await inject('OPTIONS', '/api/v1/topics/order.placed/messages', {
      origin: DASHBOARD,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type, idempotency-key, miniqueue-instance',
    });
    expect(response.statusCode).toBeLessThan(300);
    expect(response.headers['access-control-allow-origin']).toBe(DASHBOARD);
    expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain('idempotency-key');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers a preflight for a literal path that a template of another method also matches', async () => {
    for (const [url, method] of [
      ['/api/v1/messages/ack', 'POST'],
      ['/api/v1/dashboard/dlq/replay', 'POST'],
    ]) {
      const response = await inject('OPTIONS', url, { origin: DASHBOARD, 'access-control-request-method': method });
      expect([url, response.statusCode < 300, response.headers['access-control-allow-origin']]).toEqual([url, true, DASHBOARD]);
    }
  });

  it('gives a preflight from another origin nothing a browser would accept', async () => {
    const response = await inject('OPTIONS', '/api/v1/topics', {
      origin: 'https://evil.example',
      'access-control-request-method': 'GET',
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets allowed origins read answers, errors and Retry-After included', async () => {
    for (const [url, key] of [
      ['/api/v1/topics', mq.adminKey],
      ['/api/v1/topics', undefined],
      ['/nope', undefined],
    ] as const) {
      const response = await inject('GET', url, { origin: 'https://pr-7.preview.example.com', ...(key ? { authorization: `Bearer ${key}` } : {}) });
      expect(response.headers['access-control-allow-origin']).toBe('https://pr-7.preview.example.com');
      expect(String(response.headers['access-control-expose-headers'])).toContain('Retry-After');
      expect(String(response.headers.vary)).toContain('origin');
    }
    const other = await inject('GET', '/api/v1/topics', { origin: 'https://evil.example', authorization: `Bearer ${mq.adminKey}` });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('is off when no origin is configured', async () => {
    const closed = await startTestBroker({ databaseUrl: mq.databaseUrl, adminKey: mq.adminKey, env: { CORS_ALLOWED_ORIGINS: '' } });
    try {
      const response = await closed.broker.server.inject({ url: '/actuator/info', headers: { origin: DASHBOARD } });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await closed.stop();
    }
  });

  it('decides WebSocket origins by the same rules', () => {
    const allowed = [DASHBOARD, 'https://*.preview.example.com'];
    expect(originAllowed(allowed, DASHBOARD)).toBe(true);
    expect(originAllowed(allowed, 'https://a.preview.example.com')).toBe(true);
    expect(originAllowed(allowed, 'https://preview.example.com.evil.example')).toBe(false);
    expect(originAllowed(allowed, 'https://evil.example')).toBe(false);
    expect(originAllowed(allowed, undefined)).toBe(true);
    expect(originAllowed(['*'], 'https://anything.example')).toBe(true);
    expect(originAllowed([], 'https://anything.example')).toBe(false);
  });
});

describe('security headers', () => {
  it('are on every answer of the API: success, 401, 404 and validation errors', async () => {
    const answers = [
      await inject('GET', '/api/v1/topics', { authorization: `Bearer ${mq.adminKey}` }),
      await inject('GET', '/api/v1/topics'),
      await inject('GET', '/api/v1/nope'),
      await inject('POST', '/api/v1/auth/exchange'),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 401, 404, 400]);
    for (const response of answers) {
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
        'cache-control': 'no-store',
      });
    }
  });

  it('give Swagger UI a policy of its own, which lets its scripts run (see swaggerUi.test.ts)', async () => {
    const response = await inject('GET', '/swagger-ui');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
