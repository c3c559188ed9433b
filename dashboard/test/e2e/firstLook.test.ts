import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MiniQueue } from '@miniqueue/sdk';
import { newPage, screenshot } from '../helpers/browser.js';
import { contrastRatios } from '../helpers/contrast.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let admin: MiniQueue;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('orders');
  await admin.topics.create('orders.dead');
  await admin.queues.create('plain-queue', 'orders');
  await admin.queues.create('policy-queue', 'orders', {
    messageTtlSeconds: 60,
    deadLetterTopic: 'orders.dead',
    maxMessages: 1000,
    maxPriority: 5,
    singleActiveConsumer: true,
    maxDeliveriesPerSecond: 50,
  });
  await admin.queues.create('fair-queue', 'orders', { fairness: 'by_key' });
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

describe('what a new team sees first', () => {
  it('Topics & queues: each queue name opens its page, and its policies are shown beside it', async () => {
    await page.goto(`${dashboard.url}/topics`);
    const bound = page.getByRole('list', { name: 'Queues of orders' });
    await bound.getByRole('link', { name: 'policy-queue' }).waitFor();
    const features = async (queue: string) =>
      page
        .getByLabel(`Policies of ${queue}`)
        .locator('[data-feature]')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-feature')));
    expect(await features('policy-queue')).toEqual(['TTL', 'DLX', 'Lim', 'Pri', 'SAC', 'Rate']);
    expect(await features('fair-queue')).toEqual(['Fair']);
    expect(await page.getByLabel('Policies of plain-queue').count()).toBe(0);
    expect(await page.locator('[data-feature="DLX"]').getAttribute('title')).toBe('dead letters are published to orders.dead');
    await screenshot(page, 'topics-queue-links-and-policies');

    await bound.getByRole('link', { name: 'plain-queue' }).click();
    await page.waitForURL(`${dashboard.url}/queues/plain-queue`);
    await page.getByRole('heading', { name: 'plain-queue' }).first().waitFor();
    expect(errors).toEqual([]);
  });

  it('Live activity shows its connection once, not twice', async () => {
    await page.goto(`${dashboard.url}/live`);
    await page.locator('[data-testid="connection"][data-status="open"]:visible').first().waitFor();
    expect(await page.locator('[data-testid="connection"]:visible').count()).toBe(1);
    await screenshot(page, 'live-one-connection-badge');
  });

  it('a count of zero is grey, and still easy to read (7:1, WCAG AAA)', async () => {
    await page.goto(`${dashboard.url}/`);
    await page.getByTestId('count-pending').waitFor();
    const zeros = (await contrastRatios(page, '[data-testid^="count-"]')).filter((count) => count.text === '0');
    expect(zeros.length).toBeGreaterThan(0);
    for (const zero of zeros) expect(zero.ratio).toBeGreaterThanOrEqual(7);
    await page.goto(`${dashboard.url}/queues`);
    await page.getByRole('link', { name: 'plain-queue' }).first().waitFor();
    const cells = (await contrastRatios(page, '[data-column]')).filter((cell) => cell.text === '0');
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect(cell.ratio).toBeGreaterThanOrEqual(7);
    await screenshot(page, 'queues-zero-counts');
  });
});
