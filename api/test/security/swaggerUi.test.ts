import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { openapi } from '../helpers/contract.js';

let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

const page = (url = '/swagger-ui') => mq.broker.server.inject(url);
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );

describe('Swagger UI shows this broker’s contract and nothing else', () => {
  it('ignores ?url= and ?configUrl=: the page names only /openapi.yaml', async () => {
    const response = await page('/swagger-ui?url=https://evil.example/spec.yaml&configUrl=https://evil.example/config.json');
    expect(response.statusCode).toBe(200);
    expect(response.payload).not.toContain('evil.example');
    expect(response.payload).toContain('"/openapi.yaml"');
    expect(response.payload).toContain('queryConfigEnabled: false');
    expect(response.payload).not.toMatch(/location\.(search|href|hash)/);
  });

  it('has a Content-Security-Policy that runs only its own scripts and talks only to this server', async () => {
    const response = await page();
    const csp = directives(String(response.headers['content-security-policy']));
    const inline = /<script>([\s\S]*?)<\/script>/.exec(response.payload)?.[1] ?? '';
    const hash = `'sha256-${createHash('sha256').update(inline).digest('base64')}'`;
    expect(csp.get('script-src')).toEqual(["'self'", hash]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('form-action')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
  });

  it('serves the Swagger UI files it needs, and not the stock pages that read their own configuration', async () => {
    expect((await page('/swagger-ui/swagger-ui-bundle.js')).statusCode).toBe(200);
    expect((await page('/swagger-ui/swagger-ui.css')).statusCode).toBe(200);
    for (const file of ['index.html', 'oauth2-redirect.html', 'swagger-initializer.js', 'swagger-ui-standalone-preset.js', '../package.json']) {
      expect((await page(`/swagger-ui/${file}`)).statusCode, file).toBe(404);
    }
  });

  it('the contract’s version is the broker’s version', async () => {
    const version = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
    expect(openapi.info.version).toBe(version);
    expect((await mq.get('/actuator/info')).body.version).toBe(version);
  });
});
