import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  await dashboard.sdk(dashboard.broker.adminKey).topics.create('jobs');
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

const nav = (label: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
const queueNames = async () => (await dashboard.sdk(dashboard.broker.adminKey).queues.list()).map((queue) => queue.name);

describe('priorities and fair sharing in the new queue form', () => {
  it('refuses both at once and a bad per-key limit, creating nothing; then creates a queue with each', async () => {
    await nav('Topics & queues');
    const form = page.getByRole('form', { name: 'New queue' });
    await form.getByLabel('Queue name').fill('jobs-mixed');
    await form.getByLabel('Bound to topic').selectOption('jobs');
    await form.getByLabel('Priorities').selectOption('9');
    await form.getByLabel('Fair sharing').selectOption('by_key');
    await form.getByLabel('Max in flight per key (optional)').fill('0');
    await form.getByRole('button', { name: 'Create queue' }).click();
    await form.getByText('Not with priorities: choose one or the other.').waitFor();
    await form.getByText('Between 1 and 10000, or empty for no limit.').waitFor();
    expect(await queueNames()).not.toContain('jobs-mixed');

    // Priorities alone.
    await form.getByLabel('Queue name').fill('jobs-urgent');
    await form.getByLabel('Fair sharing').selectOption('none');
    await form.getByRole('button', { name: 'Create queue' }).click();
    await page.getByText('Created queue jobs-urgent, bound to jobs.').waitFor();

    // Fair sharing alone, with a per-key limit.
    await form.getByLabel('Queue name').fill('jobs-tenants');
    await form.getByLabel('Fair sharing').selectOption('by_key');
    await form.getByLabel('Max in flight per key (optional)').fill('3');
    await form.getByRole('button', { name: 'Create queue' }).click();
    await page.getByText('Created queue jobs-tenants, bound to jobs.').waitFor();

    const admin = dashboard.sdk(dashboard.broker.adminKey);
    expect(await admin.queues.get('jobs-urgent')).toMatchObject({ max_priority: 9, fairness: 'none', max_in_flight_per_key: null });
    expect(await admin.queues.get('jobs-tenants')).toMatchObject({ max_priority: null, fairness: 'by_key', max_in_flight_per_key: 3 });
    expect(await queueNames()).not.toContain('jobs-mixed');
  });
});

describe("a queue's priorities and fair sharing on its settings tab", () => {
  it('shows both as fixed; the per-key limit changes live, a bad one is explained and saves nothing, empty lifts it', async () => {
    const admin = dashboard.sdk(dashboard.broker.adminKey);
    await page.goto(`${dashboard.url}/queues/jobs-urgent?tab=settings`);
    const urgent = page.getByRole('form', { name: 'Queue settings' });
    await urgent.getByText('highest first, 0–9 (fixed when the queue was created)').waitFor();
    expect(await urgent.getByLabel('Max in flight per key').count()).toBe(0);

    await page.goto(`${dashboard.url}/queues/jobs-tenants?tab=settings`);
    const settings = page.getByRole('form', { name: 'Queue settings' });
    await settings.getByText('by group key, in turn (fixed when the queue was created); at most 3 in flight per key').waitFor();
    const perKey = settings.getByLabel('Max in flight per key');
    expect(await perKey.inputValue()).toBe('3');

    await perKey.fill('two');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Enter a whole number of messages, or leave empty for no limit.').waitFor();
    expect((await admin.queues.get('jobs-tenants')).max_in_flight_per_key).toBe(3);

    await perKey.fill('5');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('jobs-tenants')).toMatchObject({ fairness: 'by_key', max_in_flight_per_key: 5 });
    await settings.getByText('by group key, in turn (fixed when the queue was created); at most 5 in flight per key').waitFor();
    await screenshot(page, 'queue-fair-sharing-settings');

    await perKey.fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('jobs-tenants')).toMatchObject({ fairness: 'by_key', max_in_flight_per_key: null });
    await settings.getByText('by group key, in turn (fixed when the queue was created); no limit per key').waitFor();
    expect(errors).toEqual([]);
  });
});

describe('a priority, an expiry and a group key in the publish form', () => {
  it('publishes with them; a bad expiry is explained and cannot be sent', async () => {
    await nav('Publish');
    const form = page.getByRole('form', { name: 'Publish a message' });
    await form.getByLabel('Topic').selectOption('jobs');
    await form.getByRole('textbox', { name: 'Payload' }).fill('{"job": "routine"}');
    await form.getByRole('button', { name: 'Publish to jobs' }).click();
    const outcome = page.getByTestId('publish-outcome');
    await outcome.getByText('Fanned out from jobs to 2 queues:').waitFor();
    const routine = await outcome.textContent();

    await form.getByRole('textbox', { name: 'Payload' }).fill('{"job": "urgent"}');
    await form.getByLabel('Priority').selectOption('7');
    await form.getByLabel('Group key (optional)').fill('tenant-a');
    await form.getByLabel('Expires in (seconds, optional)').fill('0');
    await form.getByText('A whole number of seconds from 1 to 1209600, or empty.').waitFor();
    expect(await form.getByRole('button', { name: 'Publish to jobs' }).isDisabled()).toBe(true);
    await form.getByLabel('Expires in (seconds, optional)').fill('600');
    await screenshot(page, 'publish-priority-expiry-group-key');
    const before = Date.now();
    await form.getByRole('button', { name: 'Publish to jobs' }).click();
    // The outcome lists the new message ids once the publish is confirmed.
    await expect.poll(() => outcome.textContent()).not.toBe(routine);
    await outcome.getByText('Fanned out from jobs to 2 queues:').waitFor();

    const admin = dashboard.sdk(dashboard.broker.adminKey);
    // The priority queue gives the urgent message first, though it was published second.
    const [first, second] = await admin.receive('jobs-urgent', { maxMessages: 2 });
    expect(first).toMatchObject({ payload: '{"job": "urgent"}', priority: 7 });
    expect(second).toMatchObject({ payload: '{"job": "routine"}', priority: 0 });
    const expiresAt = first.expires_at!.getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 590_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 610_000);
    expect(second.expires_at ?? null).toBeNull();
    const tenants = await admin.receive('jobs-tenants', { maxMessages: 2 });
    expect(tenants.map((message) => [message.payload, message.group_key]).sort()).toEqual([
      ['{"job": "routine"}', ''],
      ['{"job": "urgent"}', 'tenant-a'],
    ]);
    expect(errors).toEqual([]);
  });
});
