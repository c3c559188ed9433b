import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { ALL_MESSAGES } from '../helpers/allMessages.js';

/** Real HTTP to a listening broker, keep-alive, as a consumer would talk to it. */
async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function publishMany(base: string, key: string, topic: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const messages = Array.from({ length: Math.min(500, count - start) }, (_, i) => ({ payload: `m-${start + i}` }));
    const response = await call(base, key, 'POST', `/api/v1/topics/${topic}/messages/batch`, { messages });
    expect(response.status).toBe(201);
    for (const result of response.body.results) ids.push(...result.message_ids);
  }
  return ids;
}

describe('competing consumers never receive the same message twice', () => {
  let a: TestBroker;
  let b: TestBroker;
  beforeAll(async () => {
    a = await startTestBroker({ listen: true });
    b = await startTestBroker({ listen: true, databaseUrl: a.databaseUrl, adminKey: a.adminKey });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it('10 consumers racing over 100 messages: each delivered once, then 0 PENDING and 100 UNACKED', async () => {
    await topology(a, 'race', [{ name: 'race-q', ack_timeout_seconds: 600 }]);
    const published = await publishMany(a.url, a.adminKey, 'race', 100);
    const keys = await Promise.all(Array.from({ length: 10 }, (_, i) => a.clientKey(`racer-${i}`, ['consume:race-q'])));
    const delivered: string[] = [];
    // All ten start together and claim until the queue is empty.
    await Promise.all(
      keys.map(async (key) => {
        for (;;) {
          const response = await call(a.url, key, 'POST', '/api/v1/queues/race-q/consume');
          if (response.status === 204) return;
          expect(response.status).toBe(200);
          delivered.push(response.body.message_id);
        }
      }),
    );
    expect(new Set(delivered).size).toBe(delivered.length);
    expect(new Set(delivered)).toEqual(new Set(published));
    const { rows } = await a.pool.query(
      `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
              count(*) FILTER (WHERE status = 'UNACKED')::int AS unacked FROM message WHERE queue_name = 'race-q'`,
    );
    expect(rows[0]).toEqual({ pending: 0, unacked: 100 });
  });

  it('50 consumers over 5,000 messages through two instances on one database', async () => {
    await topology(a, 'bulk', [{ name: 'bulk-q', ack_timeout_seconds: 600 }]);
    const published = await publishMany(b.url, a.adminKey, 'bulk', 5_000);
    const consumers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => ({
        base: i % 2 === 0 ? a.url : b.url,
        key: await a.clientKey(`bulk-${i}`, ['consume:bulk-q']),
      })),
    );
    const delivered: string[] = [];
    const perInstance = { a: 0, b: 0 };
    await Promise.all(
      consumers.map(async ({ base, key }) => {
        for (;;) {
          const response = await call(base, key, 'POST', '/api/v1/queues/bulk-q/receive', { max_messages: 10 });
          expect(response.status).toBe(200);
          const ids: string[] = response.body.messages.map((m: { message_id: string }) => m.message_id);
          if (ids.length === 0) return;
          delivered.push(...ids);
          perInstance[base === a.url ? 'a' : 'b'] += ids.length;
          const acked = await call(base, key, 'POST', '/api/v1/messages/ack', { message_ids: ids });
          expect(acked.body.failed).toEqual([]);
        }
      }),
    );
    expect(delivered.length).toBe(5_000);
    expect(new Set(delivered).size).toBe(5_000);
    expect(new Set(delivered)).toEqual(new Set(published));
    expect(perInstance.a).toBeGreaterThan(0);
    expect(perInstance.b).toBeGreaterThan(0);
    const { rows } = await a.pool.query(`SELECT status, count(*)::int AS n FROM ${ALL_MESSAGES} WHERE queue_name = 'bulk-q' GROUP BY status`);
    expect(rows).toEqual([{ status: 'ACKED', n: 5_000 }]);
  });
});
