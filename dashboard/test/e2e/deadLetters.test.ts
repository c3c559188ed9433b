import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { NotFoundError, type MiniQueue } from '@miniqueue/sdk';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let admin: MiniQueue;
let errors: string[];
const ids: Record<string, string> = {};

/** Kills one message of `queue` the way named: rejected outright, or nacked for a retry with none left. */
async function kill(consumer: MiniQueue, queue: string, name: string, how: 'reject' | 'exhaust', reason: string): Promise<void> {
  const message = await consumer.consume(queue);
  ids[name] = message!.message_id;
  await consumer.nack(message!.message_id, { requeue: how === 'exhaust', reason });
}

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('orders');
  await admin.queues.create('email-queue', 'orders', { maxRetries: 0 });
  await admin.queues.create('stock-queue', 'orders', { maxRetries: 0 });
  for (let i = 0; i < 4; i++) await admin.publish('orders', JSON.stringify({ orderId: i }));
  const consumer = dashboard.sdk(await dashboard.broker.clientKey('worker', ['consume:*']));
  await kill(consumer, 'email-queue', 'rejected', 'reject', 'invalid email address');
  await kill(consumer, 'email-queue', 'exhausted', 'exhaust', 'SMTP timeout');
  await kill(consumer, 'email-queue', 'third', 'reject', 'bounced');
  for (let i = 0; i < 4; i++) await kill(consumer, 'stock-queue', `stock${i}`, i % 2 ? 'reject' : 'exhaust', 'out of stock');
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
  await page.goto(`${dashboard.url}/dead-letters`);
});

const article = (name: string) => page.locator(`article[data-message-id="${ids[name]}"]`);
const listed = () => page.locator('[data-testid="dead-letters"] article').evaluateAll((items) => items.map((item) => item.getAttribute('data-message-id')));
const confirmIn = async (title: string | RegExp, button: string) =>
  page.getByRole('dialog', { name: title }).getByRole('button', { name: button, exact: true }).click();

describe('the dead-letter queue', () => {
  it('says why and when each message died', async () => {
    const rejected = article('rejected').getByTestId('death');
    await rejected.waitFor();
    expect(await rejected.textContent()).toMatch(/^Rejected by a consumer at .*\d\d:\d\d:\d\dinvalid email address$/);
    expect(await rejected.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    const exhausted = await article('exhausted').getByTestId('death').textContent();
    expect(exhausted).toContain('Retries exhausted');
    expect(exhausted).toContain('SMTP timeout');
    await screenshot(page, 'dead-letters-reasons');
  });

  it('filters by queue and by reason', async () => {
    await page.getByLabel('Queue').selectOption('email-queue');
    await expect.poll(listed).toEqual([ids.rejected, ids.exhausted, ids.third]);
    await page.getByLabel('Reason').selectOption('RETRIES_EXHAUSTED');
    await expect.poll(listed).toEqual([ids.exhausted]);
    await page.getByLabel('Reason').selectOption('');
    await expect.poll(listed).toHaveLength(3);
  });

  it('deletes one dead message for good, after confirmation', async () => {
    await article('rejected')
      .getByRole('button', { name: /Delete message/ })
      .click();
    await confirmIn('Delete this message?', 'Delete');
    await page.getByText(/Deleted message .* of email-queue\./).waitFor();
    await expect.poll(listed).toEqual([ids.exhausted, ids.third]);
    await expect(admin.getMessage(ids.rejected)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('replays a selection', async () => {
    await article('exhausted').getByRole('checkbox').check();
    await article('third').getByRole('checkbox').check();
    await page.getByTestId('bulk-bar').getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Replay selected' }).click();
    await confirmIn('Replay 2 selected messages?', 'Replay 2');
    await page.getByText('Replayed 2 messages.').waitFor();
    await page.getByText('No dead letters in email-queue').waitFor();
    expect((await admin.getMessage(ids.third)).status).toBe('PENDING');
  });

  it('replays, then deletes, everything that matches the filters', async () => {
    await page.getByLabel('Queue').selectOption('stock-queue');
    await page.getByLabel('Reason').selectOption('NACKED');
    await expect.poll(listed).toEqual([ids.stock1, ids.stock3]);
    await page.getByRole('button', { name: 'Replay all matching…' }).click();
    await screenshot(page, 'dead-letters-confirm');
    await confirmIn('Replay all the dead letters of stock-queue (rejected by a consumer)?', 'Replay all');
    await page.getByText('Replayed 2 messages to stock-queue.').waitFor();

    await page.getByLabel('Reason').selectOption('');
    await expect.poll(listed).toEqual([ids.stock0, ids.stock2]);
    await page.getByRole('button', { name: 'Delete all matching…' }).click();
    await confirmIn('Delete all the dead letters of stock-queue?', 'Delete all');
    await page.getByText('Deleted 2 messages of stock-queue.').waitFor();
    await page.getByText('No dead letters in stock-queue').waitFor();
    expect((await admin.dlq.list()).items).toEqual([]);
    expect(errors).toEqual([]);
  });
});
