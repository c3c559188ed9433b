import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '@miniqueue/sdk';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.js';
import { startDashboard, type Dashboard } from '../helpers/dashboard.js';
import { freePort, startFakeGithub, type FakeGithub } from '../helpers/fakeGithub.js';

let github: FakeGithub;
let dashboard: Dashboard;
let browser: Browser;

beforeAll(async () => {
  github = await startFakeGithub({ id: 1001, login: 'octo-admin' });
  const port = await freePort();
  [dashboard, browser] = await Promise.all([
    startDashboard({
      PORT: String(port),
      GITHUB_CLIENT_ID: github.clientId,
      GITHUB_CLIENT_SECRET: github.clientSecret,
      GITHUB_URL: github.url,
      GITHUB_CALLBACK_URL: `http://127.0.0.1:${port}/api/v1/auth/github/callback`,
      MINIQUEUE_ADMINS: 'octo-admin',
    }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.stop();
  await github?.close();
});

/** Clicks the button, consents on "GitHub", and lands back on the dashboard signed in. */
async function signInWithGithub(page: Page): Promise<void> {
  await page.goto(dashboard.url);
  await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
  await page.getByRole('heading', { name: 'Authorize MiniQueue' }).waitFor();
  await page.getByRole('link', { name: 'Authorize' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

describe('signing in with GitHub', () => {
  it('goes through GitHub and back to a session, leaving no code in the address bar', async () => {
    const { page, errors } = await newPage(browser);
    await page.goto(dashboard.url);
    await page.getByRole('link', { name: 'Sign in with GitHub' }).waitFor();
    await screenshot(page, 'sign-in-with-github');

    await signInWithGithub(page);
    expect(await page.getByTestId('who').textContent()).toBe('octo-admin');
    expect(await page.getByTestId('role').textContent()).toBe('admin');
    expect(page.url()).toBe(`${dashboard.url}/`);
    await page.locator('[data-testid="connection"][data-status="open"]:visible').waitFor();

    // The session token, not the login code, is what the tab keeps; and sign-out ends it on the server.
    const token = await page.evaluate(() => sessionStorage.getItem('miniqueue.credential'));
    expect(token).toMatch(/^mqs_/);
    expect((await dashboard.sdk(token!).auth.me()).kind).toBe('session');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You have signed out.').waitFor();
    await expect
      .poll(() =>
        dashboard
          .sdk(token!)
          .auth.me()
          .then(
            () => 'alive',
            (error) => (error instanceof UnauthorizedError ? 'ended' : String(error)),
          ),
      )
      .toBe('ended');
    expect(errors).toEqual([]);
  });

  it('makes anyone not listed as an admin a viewer', async () => {
    github.signedInAs = { id: 2002, login: 'curious-cat' };
    const { page } = await newPage(browser);
    await signInWithGithub(page);
    expect(await page.getByTestId('who').textContent()).toBe('curious-cat');
    expect(await page.getByTestId('role').textContent()).toBe('viewer');
    expect(await page.getByRole('link', { name: 'Clients' }).count()).toBe(0);
  });

  it('says so when a login code cannot be exchanged', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${dashboard.url}/#login_code=lc_used-or-made-up`);
    await page.getByText(/GitHub sign-in did not finish/).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await screenshot(page, 'sign-in-github-failed');
  });
});
