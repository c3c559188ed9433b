import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  await dashboard.sdk(dashboard.broker.adminKey).topics.create('uploads');
  ({ page } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

describe("a queue's bounds on its settings tab", () => {
  it('an admin bounds a queue and picks what it does when full; a bad bound is explained and saves nothing; empty removes it', async () => {
    const admin = dashboard.sdk(dashboard.broker.adminKey);
    await admin.queues.create('thumbnails', 'uploads');
    await page.goto(`${dashboard.url}/queues/thumbnails?tab=settings`);
    const settings = page.getByRole('form', { name: 'Queue settings' });
    const maxMessages = settings.getByLabel('Max messages');
    expect(await maxMessages.inputValue()).toBe('');

    await maxMessages.fill('0');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Between 1 and 1000000000, or empty for no bound.').waitFor();
    expect((await admin.queues.get('thumbnails')).max_messages ?? null).toBeNull();

    await maxMessages.fill('2');
    await settings.getByLabel('When full').selectOption('drop_oldest');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('thumbnails')).toMatchObject({ max_messages: 2, overflow: 'drop_oldest' });
    await screenshot(page, 'queue-bounds-saved');

    for (const n of [1, 2, 3]) await admin.publish('uploads', `{"n": ${n}}`);
    const consumer = dashboard.sdk(await dashboard.broker.clientKey('thumbnailer', ['consume:thumbnails']));
    expect(await consumer.consume('thumbnails')).toMatchObject({ payload: '{"n": 2}' });

    await maxMessages.fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect((await admin.queues.get('thumbnails')).max_messages ?? null).toBeNull();
  }, 60_000);

  it("warns what reject_publish does on a shared topic, and a queue set to refuse only its copy no longer stops the topic's other queues", async () => {
    const admin = dashboard.sdk(dashboard.broker.adminKey);
    await admin.topics.create('orders');
    await admin.queues.create('orders-main', 'orders');
    await admin.queues.create('orders-audit', 'orders');
    await page.goto(`${dashboard.url}/queues/orders-audit?tab=settings`);
    const settings = page.getByRole('form', { name: 'Queue settings' });
    await settings.getByText('this queue being full stops the publish for every queue of the topic').waitFor();

    await settings.getByLabel('Max messages').fill('1');
    await settings.getByLabel('When full').selectOption('reject_copy');
    await settings.getByText("Only this queue's copy is refused; the topic's other queues still get the message").waitFor();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('orders-audit')).toMatchObject({ max_messages: 1, overflow: 'reject_copy' });
    await screenshot(page, 'queue-bounds-reject-copy');

    await admin.publish('orders', 'first');
    const second = await admin.publish('orders', 'second');
    expect(second.queues).toEqual(['orders-main']);
    expect(second.refused).toMatchObject([{ queue: 'orders-audit', code: 'queue_full' }]);
  }, 60_000);
});
