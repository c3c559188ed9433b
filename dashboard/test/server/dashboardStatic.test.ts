import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Hapi from '@hapi/hapi';
import Inert from '@hapi/inert';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP, DASHBOARD_DIST, dashboardStaticRoutes, startTestBroker, type TestBroker } from '@miniqueue/api/testing';

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

describe('the broker serving the built dashboard', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker();
  });
  afterAll(() => mq?.stop());
  const get = (url: string, method = 'GET') => mq.broker.server.inject({ method, url });

  it('answers / and every page path with index.html, under a policy that lets it run', async () => {
    for (const url of ['/', '/queues', '/dead-letters?queue=x', '/clients/']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.payload).toContain('<div id="root"></div>');
      expect(response.headers['content-security-policy']).toBe(DASHBOARD_CSP);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
    expect((await get('/', 'HEAD')).statusCode).toBe(200);
  });

  it('serves hashed assets as cacheable for good, and a missing file as a 404', async () => {
    const [script] = (await readdir(path.join(DASHBOARD_DIST, 'assets'))).filter((name) => name.endsWith('.js'));
    const response = await get(`/assets/${script}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const missing = await get('/assets/not-there.js');
    expect(missing.statusCode).toBe(404);
    expect(JSON.parse(missing.payload)).toMatchObject({ status: 404, message: 'No route for GET /assets/not-there.js' });
  });

  it('leaves the API its JSON 404s and its own policy', async () => {
    for (const url of ['/api/v1/nothing-here', '/api', '/actuator/nope', '/ws/other']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(JSON.parse(response.payload), url).toEqual({
        status: 404,
        code: 'route_not_found',
        message: `No route for GET ${url}`,
        errors: null,
        response_body: null,
      });
      expect(response.headers['content-security-policy']).toBe(API_CSP);
    }
    const info = await get('/actuator/info');
    expect(info.statusCode).toBe(200);
    expect(info.headers['content-security-policy']).toBe(API_CSP);
  });

  it('never serves a file outside the build', async () => {
    for (const url of ['/%2e%2e/package.json', '/..%2fpackage.json', '/assets/..%2f..%2fpackage.json', '/.env']) {
      const response = await get(url);
      expect(response.payload, url).not.toContain('"@miniqueue/dashboard"');
      expect([200, 400, 404], url).toContain(response.statusCode);
    }
  });
});

describe('a broker whose dashboard is not built', () => {
  let server: Hapi.Server;
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(path.join(os.tmpdir(), 'no-dashboard-'));
    server = Hapi.server();
    await server.register(Inert);
    server.route(dashboardStaticRoutes(empty));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it('says how to build it, instead of failing', async () => {
    const response = await server.inject('/');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.payload).toContain('npm run build -w @miniqueue/dashboard');
    expect((await server.inject('/queues')).payload).toContain('has not been built');
  });

  it('still answers a missing asset with a 404', async () => {
    expect((await server.inject('/assets/index.js')).statusCode).toBe(404);
  });
});
