import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.js';
import { startDashboard, type Dashboard } from '../helpers/dashboard.js';

/** A spec someone would like to pass off as ours: every request to it is counted. */
const FOREIGN_SPEC = `openapi: 3.0.3
info: { title: Evil API, version: 6.6.6 }
servers: [{ url: "http://127.0.0.1/steal" }]
paths: {}
`;

let dashboard: Dashboard;
let browser: Browser;
let foreign: http.Server;
let foreignHits = 0;

beforeAll(async () => {
  foreign = http.createServer((_request, response) => {
    foreignHits += 1;
    response.writeHead(200, { 'content-type': 'application/yaml', 'access-control-allow-origin': '*' }).end(FOREIGN_SPEC);
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  [dashboard, browser] = await Promise.all([startDashboard(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.stop();
  await new Promise((resolve) => foreign?.close(resolve));
});

describe('Swagger UI in a browser', () => {
  it('shows this broker’s contract whatever ?url= says, runs under its CSP without a violation, and never calls the foreign spec', async () => {
    const spec = `http://127.0.0.1:${(foreign.address() as AddressInfo).port}/spec.yaml`;
    const { page, errors, context } = await newPage(browser);
    try {
      await page.goto(`${dashboard.url}/swagger-ui?url=${encodeURIComponent(spec)}&configUrl=${encodeURIComponent(spec)}`);
      await page.getByText('Publish a message to a topic').first().waitFor();
      expect(await page.locator('.info .title').textContent()).toContain('MiniQueue');
      expect(await page.locator('.info .title').textContent()).not.toContain('Evil');
      await screenshot(page, 'swagger-ui');
      expect(foreignHits).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
