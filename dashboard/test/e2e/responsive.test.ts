import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, PHONE, newPage, screenshot } from '../helpers/browser.js';
import { contrastFailures } from '../helpers/contrast.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let browser: Browser;

const PAGES = [
  { path: '/', name: 'overview', ready: '[data-testid="overview-chart"]' },
  { path: '/queues', name: 'queues', ready: '[data-queue]:visible' },
  { path: '/queues/email-queue', name: 'queue', ready: '[data-message-row]' },
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
  await dashboard.broker.clientKey('shop-frontend', ['publish:order.placed', 'consume:stock-reservations-for-the-main-warehouse', 'view']);
  await dashboard.broker.clientKey('nightly-reconciliation-job-for-the-warehouse', ['consume:*', 'publish:*', 'view', 'metrics']);
  for (let i = 0; i < 12; i++) {
    await admin.publish('order.placed', JSON.stringify({ orderId: 1000 + i, customer: { email: `customer${i}@example.com` }, total: 19.9 * (i + 1) }), {
      headers: { 'content-type': 'application/json', customer: `c-${i % 3}` },
    });
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

/** Buttons and links that a scrolling or clipping box around them cuts off, by their names. */
async function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const clipped: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('main button, main a, main input, main select')) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX === 'visible') continue;
        const frame = parent.getBoundingClientRect();
        if (box.left < frame.left - 1 || box.right > frame.right + 1)
          clipped.push((element.textContent || element.getAttribute('aria-label') || element.tagName).trim());
        break;
      }
      if (box.right > window.innerWidth + 1) clipped.push((element.textContent || element.tagName).trim());
    }
    return clipped;
  });
}

dashboardForFile(async (started) => {
  ({ dashboard, browser } = started);
  await traffic();
});

describe('every page on a desktop and on a phone', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`lays out every page without sideways scrolling or clipped controls on a ${device}`, async () => {
      const { page, errors } = await newPage(browser, viewport);
      await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
      for (const { path, name, ready } of PAGES) {
        await page.goto(`${dashboard.url}${path}`);
        await page.locator(ready).first().waitFor();
        await screenshot(page, `${device}-${name}`, { fullPage: true });
        expect({ page: name, overflow: await overflow(page), clipped: await clippedControls(page) }).toEqual({ page: name, overflow: 0, clipped: [] });
        // Every text and value readable: WCAG AA contrast, zeros and muted labels included.
        expect({ page: name, contrast: await contrastFailures(page) }).toEqual({ page: name, contrast: [] });
      }
      expect(errors).toEqual([]);
    });
  }

  it('puts each queue number under its own header on a desktop', async () => {
    const { page } = await newPage(browser, DESKTOP);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    await page.goto(`${dashboard.url}/queues`);
    await page.locator('tr[data-queue]').first().waitFor();
    const offsets = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('thead th[data-key]')]
        .filter((th) => th.dataset.key !== 'queue')
        .map((th) => {
          const label = th.querySelector('[data-label]')!.getBoundingClientRect();
          const cell = document.querySelector<HTMLElement>(`tbody tr td[data-key="${th.dataset.key}"] > *`)!.getBoundingClientRect();
          return { column: th.dataset.key, offset: Math.round(cell.right - label.right) };
        }),
    );
    expect(offsets.filter(({ offset }) => Math.abs(offset) > 2)).toEqual([]);
  });

  it('folds the menu away on a phone, and closes it on any choice, the page already shown included', async () => {
    const { page } = await newPage(browser, PHONE);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await page.getByRole('button', { name: 'Close' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'phone-menu', { fullPage: false });
    await nav.getByRole('link', { name: 'Dead letters' }).click();
    await page.getByRole('heading', { name: 'Dead letters' }).waitFor();
    expect(await nav.isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Menu' }).click();
    await nav.getByRole('link', { name: 'Dead letters' }).click();
    expect(await nav.isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded')).toBe('false');
  });
});
