import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';

// Newest first means last published: a delay, a nack's backoff or a claim moves when a message is
// available, never where it is listed. One message in each state the listing reads from, each
// published after the one before.
let mq: TestBroker;
const published: { id: string; status: string }[] = [];

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'ordered', [{ name: 'by-publish', max_retries: 0 }]);
  expect((await mq.patch('/api/v1/queues/by-publish', { acked_retention_hours: 1 }, mq.adminKey)).status).toBe(200);
  const consume = async () => (await mq.post('/api/v1/queues/by-publish/consume', undefined, mq.adminKey)).body.message_id as string;

  const acked = (await publishOne(mq, 'ordered', 'acked'))[0];
  expect(await consume()).toBe(acked);
  expect((await mq.post(`/api/v1/messages/${acked}/ack`, undefined, mq.adminKey)).status).toBe(200);
  published.push({ id: acked, status: 'ACKED' });

  const dead = (await publishOne(mq, 'ordered', 'dead'))[0];
  expect(await consume()).toBe(dead);
  expect((await mq.post(`/api/v1/messages/${dead}/nack`, { requeue: false }, mq.adminKey)).status).toBe(200);
  published.push({ id: dead, status: 'DEAD' });

  // Published before the next three, available a quarter of an hour after them.
  const delayed = await mq.post('/api/v1/topics/ordered/messages', { payload: 'delayed', delay_seconds: 900 }, mq.adminKey);
  expect(delayed.status).toBe(201);
  published.push({ id: delayed.body.message_ids[0], status: 'PENDING' });

  const unacked = (await publishOne(mq, 'ordered', 'unacked'))[0];
  expect(await consume()).toBe(unacked);
  published.push({ id: unacked, status: 'UNACKED' });

  const pending = (await publishOne(mq, 'ordered', 'pending'))[0];
  published.push({ id: pending, status: 'PENDING' });
});
afterAll(() => mq.stop());

type Page = { items: { message_id: string; status: string }[]; next_cursor: string | null };
async function listed(query: string): Promise<{ id: string; status: string }[]> {
  const seen: { id: string; status: string }[] = [];
  let cursor: string | null = null;
  do {
    const response = await mq.get(`/api/v1/queues/by-publish/messages?${query}${cursor ? `&cursor=${cursor}` : ''}`, mq.adminKey);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const page = response.body as Page;
    seen.push(...page.items.map((m) => ({ id: m.message_id, status: m.status })));
    cursor = page.next_cursor;
  } while (cursor);
  return seen;
}

describe('a queue listed in publish order', () => {
  it('lists newest first by publish time, whatever state each message is in, page after page', async () => {
    expect(await listed('order=desc&limit=2')).toEqual([...published].reverse());
    expect(await listed('order=desc')).toEqual([...published].reverse());
  });

  it('lists oldest first by publish time, the delayed message in its place', async () => {
    expect(await listed('order=asc&limit=2')).toEqual(published);
  });

  it('keeps publish order within one state', async () => {
    expect(await listed('status=PENDING&order=desc&limit=1')).toEqual(published.filter((m) => m.status === 'PENDING').reverse());
  });
});
