import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let browser: Browser;
dashboardForFile((started) => ({ dashboard, browser } = started));

describe('signing in with an API key', () => {
  it('offers only the key form when GitHub is not configured, and says why a wrong key fails', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(dashboard.url);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await page.getByText(/miniqueue \d/).waitFor(); // the build info has loaded, so the GitHub choice is decided
    expect(await page.getByText('Sign in with GitHub').count()).toBe(0);

    await page.getByLabel('Use an API key').fill('mq_not-a-real-key');
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await expect.poll(() => page.getByText(/Not signed in: .*credential/i).count()).toBe(1);
    await screenshot(page, 'sign-in-wrong-key');
    expect(errors).toEqual([]);
  });

  it('signs in with the admin key, survives a reload, and signs out', async () => {
    const { page, errors } = await newPage(browser);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    expect(await page.getByTestId('role').textContent()).toBe('admin');
    expect(await page.getByTestId('who').textContent()).toBe('bootstrap-admin');
    await page.getByTestId('count-pending').waitFor();
    await page.locator('[data-testid="connection"][data-status="open"]:visible').waitFor();
    await screenshot(page, 'overview-empty');

    await page.reload();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await page.reload();
    await page.getByLabel('Use an API key').waitFor(); // the key is gone from the tab, too
    expect(errors).toEqual([]);
  });

  it('refuses a key that can neither view nor manage, naming its scopes', async () => {
    const key = await dashboard.broker.clientKey('shop', ['publish:orders']);
    const { page } = await newPage(browser);
    await page.goto(dashboard.url);
    await page.getByLabel('Use an API key').fill(key);
    await page.getByRole('button', { name: 'Sign in with key' }).click();
    await page.getByText(/“shop” has the scopes publish:orders/).waitFor();
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
  });

  it('returns to the sign-in page when the key is revoked while signed in', async () => {
    const key = await dashboard.broker.clientKey('watcher', ['view']);
    const { page } = await newPage(browser);
    await signInWithKey(page, dashboard.url, key);
    await dashboard.sdk(dashboard.broker.adminKey).clients.delete('watcher');
    // The live feed may hear of the revocation first and sign out before the click: either way ends there.
    await page
      .getByRole('link', { name: 'Queues' })
      .first()
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await page.getByText(/session has ended or the key was revoked/).waitFor();
  });
});
