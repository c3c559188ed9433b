import { describe, expect, it } from 'vitest';
import { UnauthorizedError } from '@miniqueue/sdk';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  const admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('orders');
  await admin.queues.create('email-queue', 'orders');
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Clients', exact: true }).click();
});

describe('managing clients', () => {
  let firstKey: string;

  it('registers a client with picked scopes and shows its key once', async () => {
    const form = page.getByRole('form', { name: 'Register a client' });
    await form.getByLabel('Client name').fill('email-service');
    await form.getByRole('button', { name: 'Register client' }).click();
    await form.getByText('Choose at least one scope.').waitFor();

    await form.getByRole('group', { name: 'Consume from' }).getByLabel('email-queue').check();
    await form.getByRole('group', { name: 'Publish to' }).getByLabel('orders').check();
    await form.getByLabel('Other scope').fill('publish:refunds');
    await form.getByRole('button', { name: 'Add', exact: true }).click();
    await form.getByRole('button', { name: 'Register client' }).click();

    const shown = page.getByTestId('new-key');
    await shown.waitFor();
    firstKey = (await shown.getByTestId('api-key').textContent()) ?? '';
    expect(firstKey).toMatch(/^mq_/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: /Copied|Selected/ }).waitFor();
    await screenshot(page, 'clients-new-key');

    // The key is real: a program can use it, with exactly the scopes picked.
    const me = await dashboard.sdk(firstKey).auth.me();
    expect([...me.scopes].sort()).toEqual(['consume:email-queue', 'publish:orders', 'publish:refunds']);

    // Once dismissed it is gone for good: the list only ever shows the prefix.
    await shown.getByRole('button', { name: 'I have saved the key' }).click();
    const row = page.locator('tr[data-client="email-service"]');
    await row.waitFor();
    expect(await row.textContent()).toContain(firstKey.slice(0, 12));
    expect(await page.content()).not.toContain(firstKey);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(firstKey);
  });

  it('rotates a key after confirmation: the new one is shown once, the old one stops working', async () => {
    await page.getByRole('button', { name: 'Rotate the key of email-service' }).click();
    await page.getByRole('dialog', { name: 'Rotate the key of email-service?' }).getByRole('button', { name: 'Rotate key' }).click();
    const shown = page.getByTestId('new-key');
    await shown.getByText('New key for email-service').waitFor();
    const secondKey = (await shown.getByTestId('api-key').textContent()) ?? '';
    expect(secondKey).not.toBe(firstKey);
    await expect(dashboard.sdk(firstKey).auth.me()).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await dashboard.sdk(secondKey).auth.me()).name).toBe('email-service');
  });

  it('shows the broker’s refusal in the form, and keeps what was typed', async () => {
    await page.getByTestId('new-key').getByRole('button', { name: 'I have saved the key' }).click();
    const form = page.getByRole('form', { name: 'Register a client' });
    await form.getByLabel('Client name').fill('email-service');
    await form.getByRole('group', { name: 'Publish to' }).getByLabel('orders').check();
    await form.getByRole('button', { name: 'Register client' }).click();
    await form.getByRole('alert').filter({ hasText: 'A client named email-service already exists.' }).waitFor();
    expect(await form.getByLabel('Client name').inputValue()).toBe('email-service');
    expect(await form.getByRole('button', { name: 'Register client' }).isEnabled()).toBe(true);
    expect(await page.getByTestId('new-key').count()).toBe(0);
  });

  it('revokes a client after confirmation', async () => {
    await page.getByRole('button', { name: 'Revoke email-service' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke email-service?' });
    await screenshot(page, 'clients-revoke-confirm');
    await dialog.getByRole('button', { name: 'Revoke client' }).click();
    await page.getByText('Revoked email-service.').waitFor();
    // The notice comes with the answer; the list is reloaded right after it.
    await page.locator('tr[data-client="email-service"]').waitFor({ state: 'detached', timeout: 10_000 });
    expect((await dashboard.sdk(dashboard.broker.adminKey).clients.list()).map((client) => client.name)).not.toContain('email-service');
    expect(errors).toEqual([]);
  });
});
