import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  await dashboard.sdk(dashboard.broker.adminKey).topics.create('sms');
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

describe("a queue's delivery gates on its settings tab", () => {
  it('an admin sets one consumer at a time and a rate; a bad rate is explained and saves nothing; emptied, the limit is lifted', async () => {
    const admin = dashboard.sdk(dashboard.broker.adminKey);
    await admin.queues.create('sms-out', 'sms');
    await page.goto(`${dashboard.url}/queues/sms-out?tab=settings`);
    const settings = page.getByRole('form', { name: 'Queue settings' });
    const rate = settings.getByLabel('Max deliveries per second');
    expect(await rate.inputValue()).toBe('');

    await rate.fill('0');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Between 1 and 100000 a second.').waitFor();
    expect((await admin.queues.get('sms-out')).max_deliveries_per_second).toBeNull();

    await rate.fill('200');
    await settings.getByLabel('One consumer at a time (the next takes over when it stops)').check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('sms-out')).toMatchObject({ single_active_consumer: true, max_deliveries_per_second: 200, ack_timeout_seconds: 30 });

    await rate.fill('');
    await settings.getByLabel('One consumer at a time (the next takes over when it stops)').uncheck();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('sms-out')).toMatchObject({ single_active_consumer: false, max_deliveries_per_second: null });
    expect(errors).toEqual([]);
  });
});
