import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  const admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('quotes');
  await admin.topics.create('quotes.dead');
  ({ page } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

describe("a queue's expiry and dead-letter topic on its settings tab", () => {
  it("an admin sets a TTL, what expiry does and a dead-letter topic; a bad TTL and the queue's own topic are explained and save nothing; empty removes them", async () => {
    const admin = dashboard.sdk(dashboard.broker.adminKey);
    await admin.queues.create('pricing', 'quotes');
    await page.goto(`${dashboard.url}/queues/pricing?tab=settings`);
    const settings = page.getByRole('form', { name: 'Queue settings' });
    const ttl = settings.getByLabel('Message TTL (seconds)');
    const topic = settings.getByLabel('Dead-letter topic');
    expect(await ttl.inputValue()).toBe('');

    await ttl.fill('0');
    await topic.fill('quotes');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Between 1 and 1209600 seconds, or empty for no expiry.').waitFor();
    await settings.getByText("Not the queue's own topic: its dead letters would come back to it.").waitFor();
    expect((await admin.queues.get('pricing')).message_ttl_seconds ?? null).toBeNull();

    await ttl.fill('60');
    await settings.getByLabel('When expired').selectOption('drop');
    await topic.fill('quotes.dead');
    await settings.getByLabel('Also keep routed dead letters').check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('pricing')).toMatchObject({
      message_ttl_seconds: 60,
      on_expiry: 'drop',
      dead_letter_topic: 'quotes.dead',
      dead_letter_keep: true,
    });
    await screenshot(page, 'queue-expiry-saved');

    await ttl.fill('');
    await topic.fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    const cleared = await admin.queues.get('pricing');
    expect(cleared.message_ttl_seconds ?? null).toBeNull();
    expect(cleared.dead_letter_topic ?? null).toBeNull();
  }, 60_000);
});
