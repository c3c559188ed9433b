import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];

/** Words on any control that changes something. A viewer's page must have none of them. */
const CHANGING = /create|delete|replay|purge|publish|register|rotate|revoke|bind/i;

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  const admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('orders');
  await admin.queues.create('email-queue', 'orders');
  await admin.publish('orders', '{"orderId": 1}');
  await admin.publish('orders', '{"orderId": 2}');
  const consumer = dashboard.sdk(await dashboard.broker.clientKey('email-service', ['consume:email-queue']));
  const message = await consumer.consume('email-queue');
  await consumer.nack(message!.message_id, { requeue: false });
  await admin.queues.update('email-queue', { filter: { header: 'region', equals: 'eu' }, requireOrderingKey: true });

  const viewerKey = await dashboard.broker.clientKey('ops-viewer', ['view']);
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, viewerKey);
});

async function changingControls(): Promise<string[]> {
  const names = await page
    .locator('button:visible, a:visible, input[type=submit]:visible')
    .evaluateAll((elements) => elements.map((element) => (element.getAttribute('aria-label') ?? element.textContent ?? '').trim()));
  return names.filter((name) => CHANGING.test(name));
}

const nav = (label: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();

describe("a viewer's session", () => {
  it('is labelled viewer and has no management pages in the menu', async () => {
    expect(await page.getByTestId('role').textContent()).toBe('viewer');
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(links).toEqual(['Overview', 'Queues', 'Dead letters', 'Live activity', 'Topics & queues']);
  });

  it('shows the same data on every page without a single control that changes something', async () => {
    await page.getByTestId('count-dead').filter({ hasText: '1' }).waitFor();
    expect(await changingControls()).toEqual([]);

    await nav('Queues');
    await page.locator('tr[data-queue="email-queue"]').getByRole('link', { name: 'email-queue' }).click();
    await page.getByRole('region', { name: 'Messages of email-queue' }).locator('tr[data-message-row]').first().waitFor();
    expect(await changingControls()).toEqual([]);
    await page.getByRole('tab', { name: 'Settings' }).click();
    // Searching (by id, by header) is reading; the settings are shown, not a form.
    expect(await page.locator('form:not([role=search])').count()).toBe(0);
    const settings = await page.getByTestId('queue-settings').textContent();
    expect(settings).toContain('Max retries');
    expect(settings).toContain('"equals": "eu"');
    expect(settings).toContain('required on every message');
    expect(await page.getByTestId('queue-settings').locator('input, textarea').count()).toBe(0);
    await screenshot(page, 'viewer-queue');

    await nav('Dead letters');
    await page.locator('[data-testid="dead-letters"] article').first().waitFor();
    await page.getByLabel('Queue').selectOption('email-queue');
    await page.locator('[data-testid="dead-letters"] article').first().waitFor();
    expect(await changingControls()).toEqual([]);
    expect(await page.locator('[data-testid="dead-letters"] input[type=checkbox]').count()).toBe(0);
    await screenshot(page, 'viewer-dead-letters');

    await nav('Topics & queues');
    await page.getByRole('list', { name: 'Queues of orders' }).waitFor();
    expect(await changingControls()).toEqual([]);
    expect(await page.locator('form').count()).toBe(0);
    await screenshot(page, 'viewer-topics');

    await nav('Live activity');
    expect(await changingControls()).toEqual([]);
  });

  it('is told, not shown a form, when it opens a management page by its address', async () => {
    for (const path of ['/publish', '/clients']) {
      await page.goto(`${dashboard.url}${path}`);
      await page.getByRole('heading', { name: 'This page is for administrators' }).waitFor();
      expect(await page.locator('form').count()).toBe(0);
    }
    expect(errors).toEqual([]);
  });
});
