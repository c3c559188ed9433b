import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from '../helpers/browser.js';
import { dashboardForFile, signInWithKey, type Dashboard } from '../helpers/dashboard.js';

let dashboard: Dashboard;
let page: Page;

dashboardForFile(async (started) => {
  ({ dashboard } = started);
  ({ page } = await newPage(started.browser));
  const mq = dashboard.sdk(dashboard.broker.adminKey);
  await mq.topics.create('history');
  await mq.queues.create('history-q', 'history');
  for (const n of [1, 2, 3]) await mq.publish('history', JSON.stringify({ n }));
  for (const message of await mq.receive('history-q', { maxMessages: 10 })) await mq.ack(message.message_id);
  await signInWithKey(page, dashboard.url, dashboard.broker.adminKey);
});

describe('replay from history on the queue page', () => {
  it('counts, asks, replays, and says so; a start before the history is answered in words', async () => {
    await page.goto(`${dashboard.url}/queues/history-q?tab=replay`);
    const section = page.getByRole('region', { name: 'Replay history-q from history' });
    await section.getByRole('button', { name: 'Replay…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Replay 3 messages of history-q?').waitFor();
    await dialog.getByRole('button', { name: 'Replay 3' }).click();
    await section.getByText('Replayed 3 messages to history-q.').waitFor();
    const pending = await dashboard.sdk(dashboard.broker.adminKey).queues.messages('history-q', { status: 'PENDING' });
    expect(pending.items.map((m) => m.headers['miniqueue-redelivered'])).toEqual(['true', 'true', 'true']);
    await screenshot(page, 'history-replay');

    await section.getByLabel('Since').fill('2020-01-01T00:00');
    await section.getByRole('button', { name: 'Replay…' }).click();
    await section
      .getByRole('alert')
      .getByText(/keeps acked messages for 24 hours/)
      .waitFor();
  });
});
