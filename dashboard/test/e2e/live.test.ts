import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MiniQueue } from '@miniqueue/sdk';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, ordersWithQueues, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let admin: MiniQueue;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  admin = dashboard.sdk(dashboard.broker.adminKey);
  await ordersWithQueues(admin, 'email-queue', 'stock-queue');
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
  await page.goto(`${dashboard.url}/live`);
  await page.locator('[data-testid="connection"][data-status="open"]:visible').first().waitFor();
});

const rows = (selector = '') => page.getByTestId('feed').locator(`:scope > li${selector}`);
const batch = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ payload: JSON.stringify({ tag, i }) }));

describe('the live feed', () => {
  it('sums a burst into one row per second, type and queue, with its count', async () => {
    // One batch is one commit: ten events of one queue with one timestamp.
    await admin.publishBatch('orders', batch(10, 'burst'));
    const row = rows('[data-event-type="PUBLISHED"][data-queue="email-queue"]').first();
    await row.waitFor();
    expect(await row.getAttribute('data-count')).toBe('10');
    expect(await row.textContent()).toContain('10 messages published to email-queue');
    expect(await row.textContent()).toContain('×10');
    await screenshot(page, 'live-grouped');
  });

  it('filters by queue and by event type', async () => {
    const consumer = dashboard.sdk(await dashboard.broker.clientKey('stock-service', ['consume:stock-queue']));
    const message = await consumer.consume('stock-queue');
    await consumer.ack(message!.message_id);
    await rows('[data-event-type="ACKED"]').first().waitFor();

    await page.getByLabel('Queue').selectOption('stock-queue');
    // The drop marker stays under a queue filter: the events it stands for may be of that queue.
    const queues = () =>
      rows(':not([data-event-type="EVENTS_DROPPED"])').evaluateAll((items) => [...new Set(items.map((item) => item.getAttribute('data-queue')))]);
    await expect.poll(queues).toEqual(['stock-queue']);

    await page.getByLabel('Event').selectOption('ACKED');
    expect(await rows().evaluateAll((items) => items.map((item) => `${item.getAttribute('data-event-type')} ${item.getAttribute('data-queue')}`))).toEqual([
      'ACKED stock-queue',
    ]);
    await screenshot(page, 'live-filtered');

    await page.getByLabel('Queue').selectOption('');
    await page.getByLabel('Event').selectOption('');
  });

  it('holds still while paused, counting what arrives, and shows it on resume', async () => {
    // Messages the rows stand for: new events may join rows of their second rather than add rows.
    const shownCount = () => rows().evaluateAll((items) => items.reduce((sum, item) => sum + Number(item.getAttribute('data-count')), 0));
    await page.getByRole('button', { name: 'Pause' }).click();
    const before = await rows().count();
    const countBefore = await shownCount();
    await admin.publish('orders', JSON.stringify({ tag: 'while-paused' }));
    await page.getByTestId('paused').filter({ hasText: '2 new events since' }).waitFor();
    expect(await rows().count()).toBe(before);
    expect(await shownCount()).toBe(countBefore);
    await screenshot(page, 'live-paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(shownCount).toBeGreaterThanOrEqual(countBefore + 2);
    expect(await page.getByTestId('paused').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
