import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LAPTOP, PHONE, newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, expectCount, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let browser: Browser;

const PAGES = [
  { path: '/', name: 'overview', ready: '[data-testid="overview-counts"]' },
  { path: '/queues?queue=email-queue', name: 'queues', ready: 'article' },
  { path: '/dead-letters', name: 'dead-letters', ready: '[data-testid="dead-letters"]' },
  { path: '/live', name: 'live', ready: 'main h1' },
  { path: '/topics', name: 'topics', ready: 'form' },
  { path: '/publish', name: 'publish', ready: 'form' },
  { path: '/clients', name: 'clients', ready: '[data-testid="client-table"]' },
];

/** Some traffic, so every page has something to show: acks, a dead letter, a client or two. */
async function traffic(): Promise<void> {
  const admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('order.placed');
  await admin.queues.create('email-queue', 'order.placed', { maxRetries: 3 });
  await admin.queues.create('stock-reservations-for-the-main-warehouse', 'order.placed');
  const consumer = dashboard.sdk(await dashboard.broker.clientKey('email-service', ['consume:email-queue']));
  await dashboard.broker.clientKey('shop-frontend', ['publish:order.placed', 'view']);
  for (let i = 0; i < 12; i++) {
    await admin.publish('order.placed', JSON.stringify({ orderId: 1000 + i, customer: { email: `customer${i}@example.com` }, total: 19.9 * (i + 1) }));
  }
  for (let i = 0; i < 8; i++) {
    const message = await consumer.consume('email-queue');
    if (i === 0) await consumer.nack(message!.message_id, { requeue: false });
    else await consumer.ack(message!.message_id);
  }
}

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

dashboardForFile((started) => ({ dashboard, browser } = started));

describe('every page on a laptop and on a phone', () => {
  it('draws the throughput of traffic that happens while the overview is open', async () => {
    const { page } = await newPage(browser, LAPTOP);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    await page.locator('[data-testid="connection"][data-status="open"]:visible').waitFor();
    await traffic();
    await page.getByTestId('feed').locator('[data-event-type="ACKED"]').first().waitFor();
    await expect.poll(() => page.getByText(/^Published/).locator('strong').textContent()).not.toBe('0.0/s');
    // 12 publishes to two queues; 8 of one queue's copies consumed: 7 acked, 1 dead.
    await expectCount(page, 'acked', 7);
    await expectCount(page, 'pending', 16);
    await expectCount(page, 'dead', 1);
    await screenshot(page, 'laptop-overview');
  });

  for (const [device, viewport] of [['laptop', LAPTOP], ['phone', PHONE]] as const) {
    it(`lays out every page without sideways scrolling on a ${device}`, async () => {
      const { page, errors } = await newPage(browser, viewport);
      await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
      for (const { path, name, ready } of PAGES) {
        await page.goto(`${dashboard.url}${path}`);
        await page.locator(ready).first().waitFor();
        if (device === 'phone' || name !== 'overview') await screenshot(page, `${device}-${name}`, { fullPage: device === 'laptop' });
        expect({ page: name, overflow: await overflow(page) }).toEqual({ page: name, overflow: 0 });
      }
      expect(errors).toEqual([]);
    });
  }

  it('folds the menu away on a phone, behind a button that says whether it is open', async () => {
    const { page } = await newPage(browser, PHONE);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await menu.click();
    expect(await page.getByRole('button', { name: 'Close' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'phone-menu');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dead letters' }).click();
    await page.getByRole('heading', { name: 'Dead letters' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
  });
});
