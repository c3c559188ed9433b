import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;
let errors: string[];
/** The id of message n=7 of 100,000: far from both ends of the listing. */
let needle: string;

const SEEDED = 100_000;

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  const admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('bulk');
  await admin.queues.create('big', 'bulk');
  // 100,000 pending messages in one statement, in publish order n = 1..100000; every 1000th
  // carries the header customer=vip.
  await dashboard.broker.pool.query(
    `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
     SELECT gen_random_uuid(), 'big', 'bulk', '{"n":' || n || '}',
            jsonb_build_object('customer', CASE WHEN n % 1000 = 0 THEN 'vip' ELSE 'c-' || n END),
            'PENDING', t, t
       FROM generate_series(1, $1::int) AS n, LATERAL (SELECT now() - interval '2 hours' + n * interval '10 ms' AS t) AS at`,
    [SEEDED],
  );
  const { rows } = await dashboard.broker.pool.query<{ id: string }>(`SELECT id FROM message WHERE queue_name = 'big' AND payload = '{"n":7}'`);
  needle = rows[0].id;
  ({ page, errors } = await newPage(started.browser));
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

const messages = () => page.getByRole('region', { name: 'Messages of big' });
const payloads = () => messages().locator('[data-testid="listing"] td[data-key="payload"]').allTextContents();
const n = (payload: string) => (JSON.parse(payload) as { n: number }).n;

describe('finding a message in a queue of 100,000', () => {
  it('lists the newest first, with the total as an estimate past 10,000', async () => {
    await page.goto(`${dashboard.url}/queues`);
    await page.locator('[data-queue="big"]:visible').getByRole('link', { name: 'big' }).click();
    await page.getByRole('heading', { name: 'big' }).waitFor();
    await messages().getByTestId('message-total').filter({ hasText: 'More than 10,000 messages' }).waitFor();
    expect((await payloads()).map(n)).toEqual(Array.from({ length: 20 }, (_, i) => SEEDED - i));
    await screenshot(page, 'queue-newest-first');
  });

  it('goes to the oldest and back to the newest in one click each', async () => {
    await messages().getByRole('button', { name: 'Oldest first' }).click();
    await expect.poll(async () => (await payloads()).map(n).slice(0, 2)).toEqual([1, 2]);
    await messages().getByRole('button', { name: 'Jump to newest' }).click();
    await expect.poll(async () => (await payloads()).map(n)[0]).toBe(SEEDED);
  });

  it('finds a message by its id, pasted with spaces and in capitals', async () => {
    await messages().getByLabel('Message id').fill(` ${needle.toUpperCase()} `);
    await messages().getByRole('button', { name: 'Find' }).click();
    const found = messages().getByTestId('found-message');
    await found.locator(`article[data-message-id="${needle}"]`).waitFor();
    expect(await found.locator('pre').textContent()).toBe(JSON.stringify({ n: 7 }, null, 2));
    await screenshot(page, 'queue-message-found');

    await messages().getByLabel('Message id').fill('00000000-0000-4000-8000-000000000000');
    await messages().getByRole('button', { name: 'Find' }).click();
    await messages().getByRole('alert').filter({ hasText: 'No message has the id 00000000-0000-4000-8000-000000000000' }).waitFor();
    await messages().getByRole('button', { name: 'Close' }).click();
  });

  it('filters by a header value, and by status', async () => {
    await messages().getByLabel('Header name').fill('customer');
    await messages().getByLabel('Header value').fill('vip');
    await messages().getByRole('button', { name: 'Filter', exact: true }).click();
    // Newest first, each page searching its share of the listing: the first VIPs are n = 100000, 99000…
    await expect.poll(async () => (await payloads()).map(n).slice(0, 3)).toEqual([100_000, 99_000, 98_000]);
    expect(await messages().getByTestId('message-total').textContent()).toContain('Messages with header customer = vip');
    await screenshot(page, 'queue-header-filter');
    await messages().getByRole('button', { name: 'Clear' }).click();

    await messages().getByLabel('Status').selectOption('UNACKED');
    await messages().getByText('No UNACKED messages').waitFor();
    await messages().getByLabel('Status').selectOption('PENDING');
    await messages().getByTestId('message-total').filter({ hasText: 'More than 10,000 PENDING messages' }).waitFor();
    expect(errors).toEqual([]);
  });
});
