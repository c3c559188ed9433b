import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.js';
import { expectCount, signInWithKey } from '../helpers/dashboard.js';
import { freePort } from '../helpers/fakeGithub.js';
import { startTestBroker, type TestBroker } from '@miniqueue/api/testing';

/** A broker on a port chosen up front, so the one started again after the stop answers the same page. */
let port: number;
let broker: TestBroker;
let browser: Browser;
let page: Page;

const start = (previous?: TestBroker) =>
  startTestBroker({
    listen: true,
    databaseUrl: previous?.databaseUrl,
    adminKey: previous?.adminKey,
    env: { PORT: String(port), CORS_ALLOWED_ORIGINS: 'http://127.0.0.1:*' },
  });

beforeAll(async () => {
  port = await freePort();
  [broker, browser] = await Promise.all([start(), launchBrowser()]);
  await broker.post('/api/v1/topics', { name: 'orders' }, broker.adminKey);
  await broker.post('/api/v1/queues', { name: 'email-queue', topic_name: 'orders' }, broker.adminKey);
  await broker.post('/api/v1/topics/orders/messages', { payload: '{"orderId": 1}' }, broker.adminKey);
  ({ page } = await newPage(browser));
  await signInWithKey(page, broker.url, broker.adminKey);
});

afterAll(async () => {
  await browser?.close();
  await broker?.stop();
});

describe('while the broker is down', () => {
  it('says so above the numbers, which it marks stale, and clears once the broker is back', async () => {
    await expectCount(page, 'pending', 1);
    const banner = page.getByTestId('unreachable');
    expect(await banner.count()).toBe(0);

    await broker.stop();
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/The broker is unreachable\. The numbers on this page are stale: last heard from the broker at \d\d:\d\d:\d\d/);
    expect(await page.locator('main [data-stale="true"]').count()).toBe(1);
    expect(await page.getByTestId('count-pending').textContent()).toBe('1'); // still shown, under the banner
    await screenshot(page, 'desktop-broker-unreachable');

    broker = await start(broker);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.locator('main [data-stale="true"]').count()).toBe(0);
  });
});
