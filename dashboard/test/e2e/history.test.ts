import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MiniQueue } from '@miniqueue/sdk';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, ordersWithQueues, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let admin: MiniQueue;
let errors: string[];

/**
 * What the broker would have recorded before this page was opened: 40 minutes ago, 600 publishes
 * to `orders` stored as 600 copies in each of its two queues, 550 of email-queue's delivered and
 * 500 acked; half a minute ago, 120 deliveries; and email-queue's depth sampled once a minute.
 */
async function seedHistory(): Promise<void> {
  await dashboard.broker.pool.query(`
    WITH at AS (SELECT to_timestamp(floor(extract(epoch FROM now()) / 5) * 5) AS now5)
    , old AS (SELECT now5 - interval '40 minutes' AS bucket FROM at)
    , t AS (INSERT INTO topic_rate (topic_name, bucket, published) SELECT 'orders', bucket, 600 FROM old)
    , q AS (INSERT INTO queue_rate (queue_name, bucket, enqueued, delivered, acked, depth)
            SELECT 'email-queue', bucket, 600, 550, 500, 50 FROM old
            UNION ALL SELECT 'stock-queue', bucket, 600, 0, 0, 600 FROM old
            UNION ALL SELECT 'email-queue', now5 - interval '30 seconds', 0, 120, 120, NULL FROM at)
    , minutes AS (SELECT now5 - make_interval(mins => m) AS bucket, m FROM at, generate_series(1, 30) AS m)
    , s AS (INSERT INTO rate_sample (bucket) SELECT bucket FROM minutes)
    INSERT INTO queue_rate (queue_name, bucket, depth) SELECT 'email-queue', bucket, 10 * (30 - m) FROM minutes
      ON CONFLICT (queue_name, bucket) DO UPDATE SET depth = EXCLUDED.depth`);
}

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  admin = dashboard.sdk(dashboard.broker.adminKey);
  await ordersWithQueues(admin, 'email-queue', 'stock-queue');
  await admin.publish('orders', '{"orderId": 1}');
  await seedHistory();
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

const hourTotal = async (chart: string, line: string) =>
  Number(await page.locator(`[data-testid="${chart}"] [data-line="${line}"]`).getAttribute('data-window-total'));

describe('history and rates', () => {
  it('draws the last hour on the overview as soon as it opens, publishes apart from copies stored', async () => {
    await page.getByTestId('overview-chart').waitFor();
    expect(await hourTotal('overview-chart', 'published')).toBeGreaterThanOrEqual(600);
    expect(await hourTotal('overview-chart', 'enqueued')).toBeGreaterThanOrEqual(1200);
    expect(await hourTotal('overview-chart', 'delivered')).toBeGreaterThanOrEqual(670);
    expect(Number(await page.getByTestId('overview-chart').getAttribute('data-buckets'))).toBeGreaterThan(300);
    expect(await page.getByTestId('overview-chart').getByRole('img').getAttribute('aria-label')).toMatch(
      /^Over the last hour: 6\d\d published, 1,2\d\d copies stored/,
    );
    await screenshot(page, 'overview-history');
  });

  it('extends the chart while the overview stays open', async () => {
    await admin.publishBatch('orders', [{ payload: '{"orderId": 2}' }, { payload: '{"orderId": 3}' }, { payload: '{"orderId": 4}' }]);
    // The broker adds its counts once per 5-second bucket; the page asks for the newest buckets every
    // 5 s and replaces them by their start: 600 seeded, 1 published before the page opened, 3 now,
    // each counted once however often its bucket was fetched.
    await expect.poll(() => hourTotal('overview-chart', 'published'), { timeout: 30_000, interval: 1000 }).toBe(604);
  });

  it('lists each queue with its rates, consumers and depth, sorted and filtered', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Queues', exact: true }).click();
    const email = page.locator('tr[data-queue="email-queue"]');
    await email.waitFor();
    expect(Number(await email.locator('td[data-key="delivered"]').textContent())).toBeGreaterThan(0);
    expect(await email.locator('td[data-key="depth"] polyline').count()).toBeGreaterThan(0);
    expect(await email.getByRole('img', { name: 'Pending messages of email-queue over the last hour' }).count()).toBe(1);

    const order = () => page.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-queue')));
    expect(await order()).toEqual(['email-queue', 'stock-queue']);
    await page.locator('th[data-key="delivered"] button').click();
    expect(await page.locator('th[data-key="delivered"]').getAttribute('aria-sort')).toBe('descending');
    expect(await order()).toEqual(['email-queue', 'stock-queue']);
    await page.locator('th[data-key="delivered"] button').click();
    expect(await order()).toEqual(['stock-queue', 'email-queue']);
    await page.getByLabel('Filter queues').fill('STOCK');
    expect(await order()).toEqual(['stock-queue']);
    await page.getByText('1 of 2 queues').waitFor();
    await page.getByLabel('Filter queues').fill('');
    await screenshot(page, 'queues-rates');
  });

  it("shows a queue's own charts from its history, and lets an admin change its settings", async () => {
    await page.locator('tr[data-queue="email-queue"]').getByRole('link', { name: 'email-queue' }).click();
    await page.getByTestId('queue-chart').waitFor();
    expect(await hourTotal('queue-chart', 'delivered')).toBeGreaterThanOrEqual(670);

    await page.getByRole('tab', { name: 'Settings' }).click();
    const settings = page.getByRole('form', { name: 'Queue settings' });
    await settings.getByLabel('Ack timeout (seconds)').fill('0');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Between 1 and 43200 seconds.').waitFor();
    expect((await admin.queues.get('email-queue')).ack_timeout_seconds).toBe(30);

    await settings.getByLabel('Ack timeout (seconds)').fill('90');
    await settings.getByLabel('Max retries').fill('7');
    await settings.getByLabel('Acked retention (hours)').fill('24');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect(await admin.queues.get('email-queue')).toMatchObject({ ack_timeout_seconds: 90, max_retries: 7, acked_retention_hours: 24 });
    await screenshot(page, 'queue-settings-saved');

    // Emptied, the retention follows the broker's default again.
    await settings.getByLabel('Acked retention (hours)').fill('');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    expect((await admin.queues.get('email-queue')).acked_retention_hours).toBeNull();
    expect(errors).toEqual([]);
  });
});
