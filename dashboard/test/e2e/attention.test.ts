import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { MiniQueue } from '@miniqueue/sdk';
import { DESKTOP, PHONE, newPage, screenshot } from '../helpers/browser.js';
import { contrastFailures } from '../helpers/contrast.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let browser: Browser;
let admin: MiniQueue;

/**
 * `n` pending messages of a queue published `minutesAgo` minutes ago, in one statement, and its
 * counter raised to match (the broker keeps counts in `queue_counter`, moved by its own statements).
 */
async function seedPending(queue: string, topic: string, n: number, minutesAgo: number): Promise<void> {
  await dashboard.broker.pool.query(
    `WITH added AS (
       INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
       SELECT gen_random_uuid(), $1, $2, '{"n":' || n || '}', '{}', 'PENDING', t, t
         FROM generate_series(1, $3::int) AS n, LATERAL (SELECT now() - make_interval(mins => $4) + n * interval '1 ms' AS t) AS at
       RETURNING 1)
     UPDATE queue_counter SET pending = pending + (SELECT count(*) FROM added) WHERE queue_name = $1 AND shard = 0`,
    [queue, topic, n, minutesAgo],
  );
}

/**
 * What the broker would have recorded: over the last hour steady traffic on `orders` (30–75 a
 * second) with an import of 6,000 a second for 10 seconds 20 minutes ago; `backlog` (of the topic `imports`) taking 32/s and delivering
 * 11/s for the last minutes, its depth sampled once a minute and rising, over a day (the queue made
 * two days ago) in which its oldest pending message had waited a minute at each sample; and 12
 * dead letters of `fragile` 3 minutes ago (over one a minute for 10 minutes, all it settled).
 */
async function seedHistory(): Promise<void> {
  const at = `(SELECT to_timestamp(floor(extract(epoch FROM now()) / 5) * 5) AS now5, date_trunc('minute', now()) AS minute) AS at`;
  const hour = `(SELECT now5 - make_interval(secs => 5 * k) AS bucket, k FROM ${at}, generate_series(3, 719) AS k) AS hour`;
  const steady = 'CASE WHEN k IN (240, 241) THEN 30000 ELSE 150 + (k * 37) % 225 END';
  // Each its own statement, adding to what the broker's own recorder may already have written.
  const add =
    'ON CONFLICT (queue_name, bucket) DO UPDATE SET enqueued = queue_rate.enqueued + EXCLUDED.enqueued, delivered = queue_rate.delivered + EXCLUDED.delivered, acked = queue_rate.acked + EXCLUDED.acked, dead = queue_rate.dead + EXCLUDED.dead, depth = coalesce(EXCLUDED.depth, queue_rate.depth)';
  for (const statement of [
    `INSERT INTO topic_rate (topic_name, bucket, published) SELECT 'orders', bucket, ${steady} FROM ${hour}
       ON CONFLICT (topic_name, bucket) DO UPDATE SET published = topic_rate.published + EXCLUDED.published`,
    `INSERT INTO queue_rate (queue_name, bucket, enqueued, delivered, acked) SELECT 'healthy', bucket, ${steady}, 150, 150 FROM ${hour} ${add}`,
    `INSERT INTO queue_rate (queue_name, bucket, enqueued, delivered, acked) SELECT 'backlog', bucket, 160, 55, 55 FROM ${hour} WHERE k <= 90 ${add}`,
    `INSERT INTO queue_rate (queue_name, bucket, dead) SELECT 'fragile', now5 - interval '3 minutes', 12 FROM ${at} ${add}`,
    // A sample a minute from a day ago to an hour ago, the oldest of backlog 60 s old at each: its
    // hours of ages as the rate recorder adds them up (migration 0020). Usual: a minute; now: 14.
    `UPDATE queue SET created_at = now() - interval '2 days' WHERE name = 'backlog'`,
    `INSERT INTO rate_sample (bucket) SELECT minute - make_interval(mins => m) FROM ${at}, generate_series(60, 1440) AS m ON CONFLICT DO NOTHING`,
    `INSERT INTO queue_oldest_age_hour (queue_name, hour, total)
       SELECT 'backlog', date_bin('1 hour', minute - make_interval(mins => m), 'epoch'), 60 * count(*) FROM ${at}, generate_series(60, 1440) AS m GROUP BY 1, 2`,
    // Depth samples every half minute, rising 315 each: whichever sample a turning minute makes
    // "five minutes before", the depth was lower then.
    `INSERT INTO rate_sample (bucket) SELECT minute - make_interval(secs => 30 * h) + interval '30 seconds' FROM ${at}, generate_series(2, 17) AS h ON CONFLICT DO NOTHING`,
    `INSERT INTO queue_rate (queue_name, bucket, depth) SELECT 'backlog', minute - make_interval(secs => 30 * h) + interval '30 seconds', 18714 - 315 * h
       FROM ${at}, generate_series(2, 17) AS h ${add}`,
  ]) {
    await dashboard.broker.pool.query(statement);
  }
}

dashboardForFile(async (started) => {
  ({ dashboard, browser } = started);
  admin = dashboard.sdk(dashboard.broker.adminKey);
  await admin.topics.create('orders');
  // The healthy queue has a consumer, seen this minute and holding one message; the others are
  // made after that publish, so they hold only what is seeded.
  await admin.queues.create('healthy', 'orders');
  const consumer = dashboard.sdk(await dashboard.broker.clientKey('healthy-worker', ['consume:healthy']));
  await admin.publish('orders', '{"fresh": true}');
  await consumer.consume('healthy');
  for (const queue of ['orphaned', 'fragile']) await admin.queues.create(queue, 'orders');
  await admin.topics.create('imports');
  await admin.queues.create('backlog', 'imports');
  await seedPending('backlog', 'imports', 18_714, 14);
  // The newest three carry ordering keys (published as any producer would, so their key groups are kept).
  for (const n of [18_715, 18_716, 18_717]) await admin.publish('imports', JSON.stringify({ n }), { orderingKey: `customer-${n % 10}` });
  await seedPending('orphaned', 'orders', 40, 3);
  await seedHistory();
  await dashboard.broker.broker.core.rateRecorder.runOnce();
  await newestSampleHoldsTheSeed();
});

/**
 * Waits until the newest depth sample was taken after the seed. The recorder samples each 5-second
 * bucket once, just after it ends: the one that ended last was most likely sampled before the seed
 * (with no backlog), so the depth the overview reads as "now" is right only from the next one.
 */
async function newestSampleHoldsTheSeed(): Promise<void> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    const { rows } = await dashboard.broker.pool.query<{ depth: number | null }>(
      `SELECT k.depth FROM (SELECT max(bucket) AS bucket FROM rate_sample) s
         LEFT JOIN queue_rate k ON k.queue_name = 'backlog' AND k.bucket = s.bucket`,
    );
    if ((rows[0]?.depth ?? 0) >= 18_714) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('no depth sample after the seed within 15 s');
}

const flagsOf = (root: import('playwright-core').Locator, queue: string) =>
  root.locator(`[data-queue="${queue}"]:visible [data-attention]`).getAttribute('data-attention');

describe('what needs attention', () => {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`flags the queues in trouble first on the overview, with why, on a ${device}`, async () => {
      const { page, errors } = await newPage(browser, viewport);
      await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
      const attention = page.getByTestId('attention');
      await attention.getByRole('heading', { name: '3 queues need attention' }).waitFor();
      expect(await flagsOf(attention, 'backlog')).toBe('oldest backlog');
      expect(await flagsOf(attention, 'orphaned')).toBe('unconsumed');
      expect(await flagsOf(attention, 'fragile')).toBe('dead');
      expect(await attention.locator('[data-queue="healthy"]').count()).toBe(0);
      // The growth is against the depth sample five minutes before the newest one: which sample
      // that is depends on whether a minute turned during the run.
      expect(await attention.locator('[data-queue="backlog"]').textContent()).toMatch(
        /oldest pending 14 min, usually (\d+ s|1 min).*\d+(\.\d)?\/s in, \d+(\.\d)?\/s acked, \+[1-9][\d,]* in 5 min/,
      );
      await screenshot(page, `${device}-overview-attention`);
      expect(await contrastFailures(page)).toEqual([]);
      expect(errors).toEqual([]);
    });

    it(`marks them in the queue list and can show only them, on a ${device}`, async () => {
      const { page, errors } = await newPage(browser, viewport);
      await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
      await page.goto(`${dashboard.url}/queues`);
      await page.locator('[data-queue="backlog"]:visible').waitFor();
      expect(await page.locator('[data-queue="backlog"]:visible').getAttribute('data-flagged')).toBe('true');
      expect(await page.locator('[data-queue="healthy"]:visible').getAttribute('data-flagged')).toBe('false');
      await screenshot(page, `${device}-queues-attention`);
      await page.getByLabel(/Only those needing attention \(3\)/).check();
      await expect.poll(() => page.locator('[data-queue]:visible').count()).toBe(3);
      expect(errors).toEqual([]);
    });
  }

  it('clips the import spike on the throughput chart, marks it, and shows values on hover and per span', async () => {
    const { page, errors } = await newPage(browser, DESKTOP);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    const chart = page.getByTestId('overview-chart');
    await chart.waitFor();
    // 30–75 a second stay readable: the axis ends at 100/s, not at the import's 6,000/s.
    expect(await chart.getAttribute('data-clipped')).toBe('true');
    expect(Number(await chart.getAttribute('data-axis-max'))).toBeLessThanOrEqual(200);
    // The import's 10-second bucket holds one or both of its 5-second ones: 3,000 or 6,000 a second.
    expect(await chart.getByTestId('clip-mark').first().textContent()).toMatch(/▲ [36],\d{3}\/s/);
    const plot = page.getByTestId('overview-chart-plot');
    const box = (await plot.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
    const tooltip = chart.getByTestId('chart-tooltip');
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toMatch(/Published\s*\d+(\.\d)?\/s/);
    await screenshot(page, 'overview-chart-clipped-hover', { fullPage: false });

    await page.getByRole('group', { name: 'Span of throughput' }).getByRole('button', { name: '5 min' }).click();
    await expect.poll(() => chart.getAttribute('data-buckets')).toBe('60');
    expect(await chart.getByRole('img').getAttribute('aria-label')).toMatch(/^Over the last 5 minutes/);
    await page.getByRole('group', { name: 'Span of throughput' }).getByRole('button', { name: '24 h' }).click();
    await expect.poll(async () => Number(await chart.getAttribute('data-buckets'))).toBeGreaterThan(250);
    expect(errors).toEqual([]);
  });

  it("shows a flagged queue's page: why, depth over time, consumers, and a compact message table with ordering keys", async () => {
    for (const [device, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      const { page, errors } = await newPage(browser, viewport);
      await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
      await page.goto(`${dashboard.url}/queues/backlog`);
      await page.getByTestId('queue-attention').waitFor();
      expect(await page.getByTestId('queue-attention').textContent()).toContain('oldest pending 14 min');
      const depth = page.getByTestId('queue-depth');
      await depth.waitFor();
      expect(Number(await depth.locator('[data-line="depth"]').getAttribute('data-latest'))).toBeGreaterThan(18_000);
      const rows = page.locator('[data-testid="listing"] tr[data-message-row]');
      await expect.poll(() => rows.count()).toBe(20);
      // This page was 6,600 px tall with 20 messages; with the tabs and the compact table it is about
      // 1,900 px at 1440x900 (a little over two screens), held here under three.
      if (device === 'desktop') {
        const height = await page.evaluate(() => document.documentElement.scrollHeight);
        expect(height).toBeLessThan(2_700);
      }
      // Newest first: the last one published, n = 18,717, with its ordering key.
      expect(await rows.first().locator('td[data-key="payload"]').textContent()).toBe('{"n":18717}');
      await rows
        .first()
        .getByRole('button', { name: /^Open message/ })
        .click();
      await page.locator('[data-testid="listing"] article pre').waitFor();
      expect(await page.locator('[data-testid="listing"] article').textContent()).toContain('Ordering keycustomer-7');
      if (device === 'desktop') expect(await rows.first().locator('td[data-key="ordering-key"]').textContent()).toBe('customer-7');
      await screenshot(page, `${device}-queue-attention`);
      expect(await contrastFailures(page)).toEqual([]);
      expect(errors).toEqual([]);
    }
  });

  it('lists a queue\u2019s consumers with when each was last seen and what it holds', async () => {
    const { page, errors } = await newPage(browser, DESKTOP);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    await page.goto(`${dashboard.url}/queues/healthy`);
    const row = page.getByTestId('consumers').locator('tr[data-consumer]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.first().getAttribute('data-consumer')).toMatch(/^healthy-worker/);
    expect(await row.first().locator('[data-key="in-flight"]').textContent()).toBe('1');
    expect(await row.first().textContent()).toMatch(/just now|\d+ s ago/);
    expect(errors).toEqual([]);
  });

  it('draws a backlog building up now to its present, not cut off as a spike', async () => {
    await admin.topics.create('surges');
    await admin.queues.create('surging', 'surges');
    // An hour at about 10 pending, sampled every 5 seconds until a minute ago; 5,000 pending now.
    await dashboard.broker.pool.query(
      `INSERT INTO rate_sample (bucket) SELECT to_timestamp(floor(extract(epoch FROM now()) / 5) * 5) - make_interval(secs => 5 * k)
         FROM generate_series(12, 700) AS k ON CONFLICT DO NOTHING`,
    );
    await dashboard.broker.pool.query(
      `INSERT INTO queue_rate (queue_name, bucket, depth) SELECT 'surging', to_timestamp(floor(extract(epoch FROM now()) / 5) * 5) - make_interval(secs => 5 * k), 8 + k % 5
         FROM generate_series(12, 700) AS k`,
    );
    await seedPending('surging', 'surges', 5_000, 0);
    const { page, errors } = await newPage(browser, DESKTOP);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    await page.goto(`${dashboard.url}/queues/surging`);
    const depth = page.getByTestId('queue-depth');
    await depth.waitFor();
    await expect.poll(async () => Number(await depth.locator('[data-line="depth"]').getAttribute('data-latest'))).toBe(5_000);
    expect(await depth.getAttribute('data-clipped')).toBe('false');
    expect(Number(await depth.getAttribute('data-axis-max'))).toBeGreaterThanOrEqual(5_000);
    await screenshot(page, 'queue-depth-present');
    expect(errors).toEqual([]);
  });

  it("takes a queue's own thresholds and its mute from its settings, and its rate columns over the flags' 5 minutes", async () => {
    const { page, errors } = await newPage(browser, DESKTOP);
    await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
    await page.goto(`${dashboard.url}/queues`);
    await page.locator('[data-queue="backlog"]:visible').waitFor();
    expect(await page.locator('th[data-key="enqueued"]').getAttribute('title')).toMatch(/over the last 5 minutes$/);
    expect(await flagsOf(page.locator('body'), 'backlog')).toBe('oldest backlog');

    // backlog: its oldest pending waits 14 minutes, which is its normal at night: flag it past 2 hours.
    await page.goto(`${dashboard.url}/queues/backlog?tab=settings`);
    const settings = page.getByTestId('queue-settings');
    await settings.getByLabel('Oldest pending over (seconds)').fill('7200');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();
    await screenshot(page, 'queue-attention-settings');
    expect((await admin.queues.get('backlog')).attention).toMatchObject({ muted: false, oldest_pending_seconds: 7200 });

    // orphaned: a queue nobody consumes on purpose, muted.
    await page.goto(`${dashboard.url}/queues/orphaned?tab=settings`);
    await settings.getByLabel(/^Mute: never flag this queue/).check();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Settings saved.').waitFor();

    await page.goto(`${dashboard.url}/queues`);
    await page.locator('[data-queue="backlog"]:visible').waitFor();
    await expect.poll(() => flagsOf(page.locator('body'), 'backlog')).toBe('backlog');
    await expect.poll(() => page.locator('[data-queue="orphaned"]:visible').getAttribute('data-flagged')).toBe('false');
    await screenshot(page, 'queues-attention-thresholds');
    expect(errors).toEqual([]);
  });
});
