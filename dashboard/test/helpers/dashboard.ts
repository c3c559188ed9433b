import { afterAll, beforeAll, expect } from 'vitest';
import { MiniQueue } from '@miniqueue/sdk';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from './browser.js';
import { startTestBroker, type TestBroker } from '@miniqueue/api/testing';

export interface Dashboard {
  broker: TestBroker;
  /** Where the broker serves the dashboard, e.g. http://127.0.0.1:41234 */
  url: string;
  /** A program's SDK client with this key, to act beside the person in the browser. */
  sdk(key: string): MiniQueue;
  stop(): Promise<void>;
}

/**
 * A real broker on its own database, listening, serving the built dashboard. Browsers are only
 * let open WebSockets from configured origins; the port is not known before listening, hence
 * the pattern.
 */
export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  const broker = await startTestBroker({ listen: true, env: { CORS_ALLOWED_ORIGINS: 'http://127.0.0.1:*', ...env } });
  return {
    broker,
    url: broker.url,
    sdk: (key) => new MiniQueue({ url: broker.url, apiKey: key, retry: { attempts: 1 } }),
    stop: () => broker.stop(),
  };
}

export interface FileDashboard {
  dashboard: Dashboard;
  browser: Browser;
}

/**
 * A dashboard and a Chromium for the calling test file: started together before its tests (then
 * `onStarted` sets the file up), closed after them.
 */
export function dashboardForFile(onStarted: (started: FileDashboard) => unknown): void {
  let started: Partial<FileDashboard> = {};
  beforeAll(async () => {
    const [dashboard, browser] = await Promise.all([startDashboard(), launchBrowser()]);
    started = { dashboard, browser };
    await onStarted({ dashboard, browser });
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.dashboard?.stop();
  });
}

/** Types the key into the sign-in form, as a person would, and waits for the signed-in page. */
export async function signInWithKey(page: Page, url: string, key: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Use an API key').fill(key);
  await page.getByRole('button', { name: 'Sign in with key' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The text of the overview's count tile, e.g. count('pending') → 3. */
export async function count(page: Page, status: 'pending' | 'unacked' | 'acked' | 'dead'): Promise<number> {
  const text = await page.getByTestId(`count-${status}`).textContent();
  return Number((text ?? '').replace(/[^\d]/g, ''));
}

export async function expectCount(page: Page, status: 'pending' | 'unacked' | 'acked' | 'dead', expected: number): Promise<void> {
  await expect.poll(() => count(page, status), { timeout: 10_000 }).toBe(expected);
}

/** The topic `orders` with these queues bound to it, made by an admin's SDK client. */
export async function ordersWithQueues(admin: MiniQueue, ...queues: string[]): Promise<void> {
  await admin.topics.create('orders');
  for (const queue of queues) await admin.queues.create(queue, 'orders');
}
