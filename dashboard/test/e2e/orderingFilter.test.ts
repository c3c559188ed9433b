import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  await dashboard.sdk(dashboard.broker.adminKey).topics.create('payments');
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

const nav = (label: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();

describe('a header filter in the new queue form, an ordering key in the publish form', () => {
  it('creates a filtered queue that requires keys; bad JSON and a bad filter are explained', async () => {
    await nav('Topics & queues');
    const form = page.getByRole('form', { name: 'New queue' });
    await form.getByLabel('Queue name').fill('eu-ledger');
    await form.getByLabel('Bound to topic').selectOption('payments');
    await form.getByLabel('Header filter (optional)').fill('{"header": "region",');
    await form.getByRole('button', { name: 'Create queue' }).click();
    await form.getByText('Not valid JSON.').waitFor();
    // JSON, but not a filter: the broker's 400 names the problem.
    await form.getByLabel('Header filter (optional)').fill('{"header": "region", "matches": "eu"}');
    await form.getByRole('button', { name: 'Create queue' }).click();
    await form.getByText(/filter must be a condition/).waitFor();

    await form.getByLabel('Header filter (optional)').fill('{"header": "region", "one_of": ["eu", "uk"]}');
    await form.getByLabel('Require an ordering key on every message').check();
    await form.getByRole('button', { name: 'Create queue' }).click();
    await page.getByText('Created queue eu-ledger, bound to payments.').waitFor();
    await form.getByLabel('Queue name').fill('all-payments');
    await form.getByRole('button', { name: 'Create queue' }).click();
    await page.getByText('Created queue all-payments, bound to payments.').waitFor();

    const queue = await dashboard.sdk(dashboard.broker.adminKey).queues.get('eu-ledger');
    expect(queue).toMatchObject({ filter: { header: 'region', one_of: ['eu', 'uk'] }, require_ordering_key: true });
    expect((await dashboard.sdk(dashboard.broker.adminKey).queues.get('all-payments')).filter).toBeUndefined();
  });

  it('publishes with an ordering key; only the queues whose filter matched are listed', async () => {
    await nav('Publish');
    const form = page.getByRole('form', { name: 'Publish a message' });
    await form.getByLabel('Topic').selectOption('payments');
    await form.getByRole('button', { name: 'Add header' }).click();
    await form.getByLabel('Header 2 name').fill('region');
    await form.getByLabel('Header 2 value').fill('us');
    // Not for eu-ledger, so no key is needed.
    await form.getByRole('button', { name: 'Publish to payments' }).click();
    const outcome = page.getByTestId('publish-outcome');
    await outcome.getByText('Fanned out from payments to 1 queue:').waitFor();

    await form.getByLabel('Header 2 value').fill('eu');
    await form.getByRole('button', { name: 'Publish to payments' }).click();
    await form.getByText('ordering_key: is required by a queue this message would go to').waitFor();

    await form.getByLabel('Ordering key (optional)').fill('customer-7');
    await form.getByRole('button', { name: 'Publish to payments' }).click();
    await outcome.getByText('Fanned out from payments to 2 queues:').waitFor();
    expect(await outcome.getByText('eu-ledger').count()).toBe(1);
    await screenshot(page, 'publish-ordering-key-filter');

    const consumer = dashboard.sdk(await dashboard.broker.clientKey('ledger', ['consume:eu-ledger']));
    expect(await consumer.consume('eu-ledger')).toMatchObject({ ordering_key: 'customer-7', headers: { region: 'eu' } });
    expect(errors).toEqual([]);
  });
});

describe("a queue's filter and key rule on its own page", () => {
  it('an admin sets both; a bad filter is explained next to the field and saves nothing', async () => {
    const admin = dashboard.sdk(dashboard.broker.adminKey);
    await admin.queues.create('audit', 'payments');
    await page.goto(`${dashboard.url}/queues/audit?tab=settings`);
    const settings = page.getByRole('form', { name: 'Queue settings' });
    const filter = settings.getByLabel('Header filter');
    expect(await filter.inputValue()).toBe('');

    // JSON, but not a filter: only the broker knows, and its message sits by the field.
    await filter.fill('{"header": "region", "matches": "eu"}');
    await settings.getByLabel('Require an ordering key on every message').check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText(/filter must be a condition/).waitFor();
    expect(await filter.getAttribute('aria-invalid')).toBe('true');
    expect(await settings.getByRole('alert').count()).toBe(0);
    const unchanged = await admin.queues.get('audit');
    expect(unchanged.filter).toBeUndefined();
    expect(unchanged.require_ordering_key).toBe(false);

    await filter.fill('{"header": "region", "equals": "eu"}');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('audit')).toMatchObject({ filter: { header: 'region', equals: 'eu' }, require_ordering_key: true, ack_timeout_seconds: 30 });
    expect(await filter.inputValue()).toBe('{\n  "header": "region",\n  "equals": "eu"\n}');
    await screenshot(page, 'queue-filter-saved');

    expect((await admin.publish('payments', '{"n": 1}', { headers: { region: 'us' } })).queues).not.toContain('audit');
    expect((await admin.publish('payments', '{"n": 2}', { headers: { region: 'eu' }, orderingKey: 'k1' })).queues).toContain('audit');
    const consumer = dashboard.sdk(await dashboard.broker.clientKey('auditor', ['consume:audit']));
    expect(await consumer.consume('audit')).toMatchObject({ payload: '{"n": 2}' });

    // An emptied box removes the filter; the key rule is switched off the same way it was switched on.
    await filter.fill('');
    await settings.getByLabel('Require an ordering key on every message').uncheck();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    const cleared = await admin.queues.get('audit');
    expect(cleared.filter).toBeUndefined();
    expect(cleared.require_ordering_key).toBe(false);
    expect(errors).toEqual([]);
  });
});
