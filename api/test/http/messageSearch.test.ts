import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_SCAN_ROWS, TOTAL_CAP } from '../../src/broker/listing.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';

let mq: TestBroker;
const ids: string[] = [];

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'events', [{ name: 'inbox' }]);
  // 12 messages; every third is for customer 7.
  for (let i = 0; i < 12; i++) {
    const headers = { customer: i % 3 === 0 ? '7' : String(100 + i), 'a=b': 'x' };
    const published = await mq.post('/api/v1/topics/events/messages', { payload: `m${i}`, headers }, mq.adminKey);
    ids.push(published.body.message_ids[0]);
  }
});
afterAll(() => mq.stop());

type Page = { items: { message_id: string; status: string }[]; next_cursor: string | null; total: number | null; total_exact: boolean };
const list = async (query: string): Promise<Page> => {
  const response = await mq.get(`/api/v1/queues/inbox/messages?${query}`, mq.adminKey);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
async function all(query: string): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.items.map((m) => m.message_id));
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

describe('finding a message', () => {
  it('lists newest first, and the first page is the newest', async () => {
    const newest = await list('order=desc&limit=5');
    expect(newest.items.map((m) => m.message_id)).toEqual(ids.slice(-5).reverse());
    expect(await all('order=desc&limit=5')).toEqual([...ids].reverse());
    expect(await all('order=asc&limit=5')).toEqual(ids);
  });

  it('counts the total, exactly when small', async () => {
    expect(await list('limit=5')).toMatchObject({ total: 12, total_exact: true });
    expect(await list('status=UNACKED')).toMatchObject({ total: 0, total_exact: true, items: [] });
    expect(TOTAL_CAP).toBe(10_000);
  });

  it('filters by a header value, oldest or newest first, page after page', async () => {
    const sevens = ids.filter((_, i) => i % 3 === 0);
    expect(await all('header=customer%3D7&limit=1')).toEqual(sevens);
    expect(await all('header=customer%3D7&order=desc&limit=3')).toEqual([...sevens].reverse());
    const page = await list('header=customer%3D7&limit=10');
    expect(page).toMatchObject({ total: null, total_exact: false, next_cursor: null });
    expect(await all('header=customer%3D999')).toEqual([]);
    // Split at the first "=": the name cannot hold one, the value can.
    expect(await all('header=a%3Db%3Dx')).toEqual([]);
    expect((await mq.get('/api/v1/queues/inbox/messages?header=customer', mq.adminKey)).status).toBe(400);
  });

  it('combines the header filter with the status filter', async () => {
    const claimed = (await mq.post('/api/v1/queues/inbox/consume', undefined, mq.adminKey)).body.message_id;
    expect(claimed).toBe(ids[0]);
    expect(await all('header=customer%3D7&status=UNACKED')).toEqual([ids[0]]);
    expect(await all('header=customer%3D7&status=PENDING')).toEqual(ids.filter((_, i) => i % 3 === 0 && i > 0));
  });

  it('examines a bounded number of rows per page and continues from where it stopped', async () => {
    // More non-matching messages than one scan examines, then one match.
    await mq.pool.query(
      `INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at)
       SELECT miniqueue_uuidv7(), 'inbox', 'events', 'filler', '{"customer":"1"}', 'PENDING', now(), now() + interval '1 minute'
         FROM generate_series(1, $1)`,
      [TOTAL_CAP + 10],
    );
    const needle = (await mq.post('/api/v1/topics/events/messages', { payload: 'needle', headers: { customer: 'needle' }, delay_seconds: 900 }, mq.adminKey))
      .body.message_ids[0];
    const first = await list('header=customer%3Dneedle');
    expect(first.items).toEqual([]);
    expect(first.next_cursor).not.toBeNull();
    // Each page looked at HEADER_SCAN_ROWS more: the needle is on the third (after 12 + 10,010 others).
    const pages: Page[] = [first];
    while (pages.at(-1)?.next_cursor) pages.push(await list(`header=customer%3Dneedle&cursor=${pages.at(-1)?.next_cursor}`));
    expect(pages.map((page) => page.items.length)).toEqual([0, 0, 1]);
    expect(pages[2].items[0].message_id).toBe(needle);
    expect(HEADER_SCAN_ROWS).toBe(5_000);
    // The newest-first search finds it at once.
    expect((await list('header=customer%3Dneedle&order=desc')).items.map((m) => m.message_id)).toEqual([needle]);
    expect(await list('limit=1')).toMatchObject({ total: TOTAL_CAP, total_exact: false });
  });
});
