import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PUSH_ENV } from '@miniqueue/api/testing';
import { launchBrowser, newPage, PHONE, screenshot } from '../helpers/browser.js';
import { signInWithKey, startDashboard, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [dashboard, browser] = await Promise.all([startDashboard(PUSH_ENV), launchBrowser()]);
  const mq = dashboard.sdk(dashboard.broker.adminKey);
  await mq.topics.create('hooks');
  await mq.queues.create('hooked', 'hooks');
  ({ page } = await newPage(browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});
afterAll(async () => {
  await browser?.close();
  await dashboard?.stop();
});

const openQueue = async () => {
  await page.goto(`${dashboard.url}/queues/hooked?tab=push`);
  return page.getByRole('region', { name: 'Push endpoint of hooked' });
};

describe('push endpoint on the queue page', () => {
  it('asks for no endpoint a queue does not have: no 404 on its page or its Push tab', async () => {
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url());
    });
    await page.goto(`${dashboard.url}/queues/hooked`);
    await page.getByRole('tab', { name: 'Messages' }).waitFor();
    await page.getByRole('tab', { name: 'Push' }).click();
    await page.getByRole('region', { name: 'Push endpoint of hooked' }).getByText("None: consumers pull this queue's messages.").waitFor();
    expect(missing).toEqual([]);
  });

  it('sets an endpoint and shows its secret once; a refused URL says why; rotates and removes', async () => {
    let section = await openQueue();
    await section.getByText("None: consumers pull this queue's messages.").waitFor();
    await section.getByLabel('Endpoint URL').fill('https://10.0.0.1/hook');
    await section.getByRole('button', { name: 'Set endpoint' }).click();
    await section
      .getByRole('alert')
      .getByText(/private, loopback or reserved/)
      .waitFor();

    await section.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/hook');
    await section.getByRole('button', { name: 'Set endpoint' }).click();
    const first = await section.getByTestId('push-secret').locator('code').textContent();
    expect(first).toMatch(/^mqwh_/);
    await section.getByTestId('push-url').getByText('http://127.0.0.1:9/hook').waitFor();
    await screenshot(page, 'push-endpoint');

    // Shown once: after leaving the page it is gone for good.
    await page.reload();
    section = await openQueue();
    await section.getByTestId('push-url').waitFor();
    expect(await section.getByTestId('push-secret').count()).toBe(0);
    // The form starts from what is set.
    expect(await section.getByLabel('Endpoint URL').inputValue()).toBe('http://127.0.0.1:9/hook');
    expect(await section.getByLabel('At most in flight').inputValue()).toBe('4');
    expect(Number(await section.getByLabel('Timeout (seconds)').inputValue())).toBeGreaterThan(0);
    expect(await page.content()).not.toContain(first);

    await section.getByRole('button', { name: 'Rotate secret…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
    const second = await section.getByTestId('push-secret').locator('code').textContent();
    expect(second).toMatch(/^mqwh_/);
    expect(second).not.toBe(first);

    await section.getByRole('button', { name: 'Remove…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove endpoint' }).click();
    await section.getByText("None: consumers pull this queue's messages.").waitFor();
  });

  it('shows a failing endpoint on its Push tab (in a row, the last error) and flags its queue in the list', async () => {
    const mq = dashboard.sdk(dashboard.broker.adminKey);
    await mq.topics.create('failing-hooks');
    await mq.queues.create('failing-hooked', 'failing-hooks', { maxRetries: 50 });
    // Port 9 (discard): nothing listens on loopback, each POST is refused.
    await mq.push.set('failing-hooked', 'http://127.0.0.1:9/hook', { maxInFlight: 8 });
    for (let n = 0; n < 6; n += 1) await mq.publish('failing-hooks', `m${n}`);
    await page.goto(`${dashboard.url}/queues/failing-hooked?tab=push`);
    const health = page.getByRole('region', { name: 'Push endpoint of failing-hooked' }).getByTestId('push-health');
    // The tab reads the endpoint again every few seconds: the failures arrive without a reload.
    await health.getByText(/^failing: \d+ in a row$/).waitFor({ timeout: 20_000 });
    await health.getByText(/push delivery failed \(connection: ECONNREFUSED\)/).waitFor();
    expect(await health.getAttribute('data-failing')).toBe('true');
    await screenshot(page, 'push-failing');

    await page.goto(`${dashboard.url}/queues?attention=1`);
    await page
      .getByText(/push failing, \d+ in a row/)
      .first()
      .waitFor({ timeout: 20_000 });
    await screenshot(page, 'queues-push-attention');
  });

  it('fits a phone: the queue page with replay and push open does not scroll sideways', async () => {
    ({ page } = await newPage(browser, PHONE));
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    await page.getByRole('button', { name: /menu/i }).first().click();
    const section = await openQueue();
    await section.getByText("None: consumers pull this queue's messages.").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, 'queue-replay-push-phone');
  });
});
