import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, expectCount, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

const nav = (label: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();

// One story, in order: each step builds on the broker state the previous one left.
describe('operating the broker from the dashboard', () => {
  it('creates a topic and binds two queues to it', async () => {
    await nav('Topics & queues');
    const topicForm = page.getByRole('form', { name: 'New topic' });
    await topicForm.getByLabel('Topic name').fill('Orders!');
    await topicForm.getByRole('button', { name: 'Create topic' }).click();
    await topicForm.getByText('Use only letters, digits, dots, underscores and hyphens.').waitFor();
    await topicForm.getByLabel('Topic name').fill('orders');
    await topicForm.getByRole('button', { name: 'Create topic' }).click();
    await page.getByText('Created topic orders.').waitFor();

    const queueForm = page.getByRole('form', { name: 'New queue' });
    for (const name of ['email-queue', 'stock-queue']) {
      await queueForm.getByLabel('Queue name').fill(name);
      await queueForm.getByLabel('Bound to topic').selectOption('orders');
      await queueForm.getByLabel('Max retries').fill('2');
      await queueForm.getByRole('button', { name: 'Create queue' }).click();
      await page.getByText(`Created queue ${name}, bound to orders.`).waitFor();
    }
    const bound = page.getByRole('list', { name: 'Queues of orders' });
    await bound.getByText('stock-queue').waitFor();
    expect(await bound.getByText('max retries 2').count()).toBe(2);

    // A duplicate is the API's 409, shown in words.
    await topicForm.getByLabel('Topic name').fill('orders');
    await topicForm.getByRole('button', { name: 'Create topic' }).click();
    await topicForm.getByText(/already exists/i).waitFor();
    await screenshot(page, 'topics-and-queues');
  });

  it('publishes a templated JSON message and shows the queues it fanned out to', async () => {
    await nav('Publish');
    const form = page.getByRole('form', { name: 'Publish a message' });
    await form.getByLabel('Payload', { exact: true }).fill('{"orderId": 42,}');
    await form.getByText(/Not valid JSON at line 1/).waitFor();
    expect(await form.getByRole('button', { name: /Publish to/ }).isDisabled()).toBe(true);

    await form.getByLabel('Payload template').selectOption({ label: 'Order placed' });
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 2 name').fill('source');
    await form.getByLabel('Header 2 value').fill('dashboard');
    await form.getByRole('button', { name: 'Publish to orders' }).click();

    const outcome = page.getByTestId('publish-outcome');
    await outcome.getByText('Fanned out from orders to 2 queues:').waitFor();
    expect(await outcome.getByText('email-queue').count()).toBe(1);
    expect(await outcome.getByText('stock-queue').count()).toBe(1);
    await screenshot(page, 'publish-fan-out');
  });

  it('updates the counts and the live feed as a program publishes', async () => {
    await nav('Overview');
    await expectCount(page, 'pending', 2);
    await page.locator('[data-testid="connection"][data-status="open"]:visible').waitFor();

    // No reload from here on: what changes on screen came through the live feed.
    await dashboard.sdk(dashboard.broker.adminKey).publish('orders', JSON.stringify({ orderId: 43 }));
    await expectCount(page, 'pending', 4);
    const feed = page.getByTestId('feed');
    await feed.locator('[data-event-type="PUBLISHED"][data-queue="email-queue"]').first().waitFor();
    await screenshot(page, 'overview-after-publish');

    await nav('Live activity');
    expect(await page.locator('[data-event-type="PUBLISHED"]').count()).toBeGreaterThanOrEqual(2);
  });

  it("opens a queue's page from the list, its messages newest first, a row opening to its payload pretty-printed", async () => {
    await nav('Queues');
    const row = page.locator('tr[data-queue="email-queue"]');
    expect(await row.locator('[data-column="pending"]').textContent()).toBe('2');
    await row.getByRole('link', { name: 'email-queue' }).click();
    const messages = page.getByRole('region', { name: 'Messages of email-queue' });
    const rows = messages.locator('tr[data-message-row]');
    await rows.nth(1).waitFor();
    expect(await rows.first().locator('td[data-key="payload"]').textContent()).toBe(JSON.stringify({ orderId: 43 }));
    await rows
      .first()
      .getByRole('button', { name: /^Open message/ })
      .click();
    const payload = await messages.locator('article pre').first().textContent();
    expect(payload).toBe(JSON.stringify({ orderId: 43 }, null, 2));
    await rows
      .nth(1)
      .getByRole('button', { name: /^Open message/ })
      .click();
    await messages.locator('article').nth(1).waitFor();
    expect(await messages.getByText('source: dashboard').count()).toBe(1);
    await screenshot(page, 'queue-messages');
  });

  it('shows a message nacked to the DLQ by a consumer, and replays it after confirmation', async () => {
    const consumerKey = await dashboard.broker.clientKey('email-service', ['consume:email-queue']);
    const consumer = dashboard.sdk(consumerKey);
    const message = await consumer.consume('email-queue');
    expect(message).not.toBeNull();
    await consumer.nack(message!.message_id, { requeue: false });

    await nav('Dead letters');
    const dead = page.locator(`article[data-message-id="${message!.message_id}"]`);
    await dead.waitFor();
    expect(await dead.getByText('email-service').count()).toBe(1); // the last consumer
    await screenshot(page, 'dead-letters');

    await dead.getByRole('button', { name: /Replay message/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Replay this message?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dead.count()).toBe(1); // cancelled: nothing happened
    await dead.getByRole('button', { name: /Replay message/ }).click();
    await screenshot(page, 'dead-letters-confirm');
    await dialog.getByRole('button', { name: 'Replay' }).click();
    await page.getByText(/Replayed message .* to email-queue\./).waitFor();
    await page.getByText('No dead letters').waitFor();

    const [replayed] = (await dashboard.sdk(dashboard.broker.adminKey).queues.messages('email-queue', { status: 'PENDING' })).items.filter(
      (item) => item.message_id === message!.message_id,
    );
    expect(replayed?.retry_count).toBe(0);
  });

  it('replays all dead letters of a queue at once', async () => {
    const consumer = dashboard.sdk(await dashboard.broker.clientKey('stock-service', ['consume:stock-queue']));
    for (let i = 0; i < 2; i++) {
      const message = await consumer.consume('stock-queue');
      await consumer.nack(message!.message_id, { requeue: false });
    }
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByLabel('Queue').selectOption('stock-queue');
    await page.locator('[data-testid="dead-letters"] article').nth(1).waitFor();
    await page.getByRole('button', { name: 'Replay all matching…' }).click();
    await page.getByRole('dialog', { name: 'Replay all the dead letters of stock-queue?' }).getByRole('button', { name: 'Replay all' }).click();
    await page.getByText('Replayed 2 messages to stock-queue.').waitFor();
    await page.getByText('No dead letters in stock-queue').waitFor();
    expect(errors).toEqual([]);
  });
});
