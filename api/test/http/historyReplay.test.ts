import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../src/db/pool.js';
import { historyReplayBatch, historyReplayInsert, historyReplayLock } from '../../src/db/queries/historyReplay.js';
import { idempotencyCleanup } from '../../src/jobs/idempotencyCleanup.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let mq: TestBroker;

beforeAll(async () => {
  mq = await startTestBroker({ env: { MINIQUEUE_ACKED_RETENTION_HOURS: '24' } });
});
afterAll(() => mq.stop());

const replay = (queue: string, body: unknown, idempotencyKey?: string) =>
  mq.post(`/api/v1/queues/${queue}/replay`, body, mq.adminKey, idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined);

async function consumeAndAck(queue: string): Promise<{ message_id: string; headers: Record<string, string>; payload: string }> {
  const claimed = await mq.post(`/api/v1/queues/${queue}/consume`, undefined, mq.adminKey);
  expect(claimed.status).toBe(200);
  expect((await mq.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, mq.adminKey)).status).toBe(200);
  return claimed.body;
}

async function drain(queue: string) {
  const seen = [];
  for (;;) {
    const claimed = await mq.post(`/api/v1/queues/${queue}/receive`, { max_messages: 100 }, mq.adminKey);
    if (claimed.body.messages.length === 0) return seen;
    seen.push(...claimed.body.messages);
    await mq.post('/api/v1/messages/ack', { message_ids: claimed.body.messages.map((m: { message_id: string }) => m.message_id) }, mq.adminKey);
  }
}

const pendingIn = async (queue: string) => (await mq.pool.query(`SELECT count(*)::int AS n FROM message WHERE queue_name = $1`, [queue])).rows[0].n as number;

/** `count` acked messages of `queue`, published a minute apart from `minutesAgo` minutes ago. */
async function ackedHistory(queue: string, count: number, minutesAgo = 60) {
  await mq.pool.query(
    `INSERT INTO message_acked (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at, available_at, acked_at)
     SELECT miniqueue_uuidv7(), nextval('message_seq'), $1, 'bulk', 'm' || i, '{}', 0, t, t, now()
       FROM generate_series(1, $2) AS i, LATERAL (SELECT now() - make_interval(mins => $3) + i * interval '1 millisecond' AS t) x`,
    [queue, count, minutesAgo],
  );
}

describe('replay from history', () => {
  it('delivers acked messages published since a time again, as new messages naming their original', async () => {
    await topology(mq, 'orders', [{ name: 'billing' }, { name: 'audit' }]);
    const since = new Date(Date.now() - 1000).toISOString();
    for (const payload of ['a', 'b', 'c']) await publishOne(mq, 'orders', payload);
    const originals = [await consumeAndAck('billing'), await consumeAndAck('billing'), await consumeAndAck('billing')];
    const dry = await replay('billing', { since, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, messages: 3, replay_id: null, queue: 'billing' });
    expect(await pendingIn('billing')).toBe(0);

    const done = await replay('billing', { since });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ dry_run: false, messages: 3, queue: 'billing' });
    // Only the queue asked for gets copies, not the topic's other queues.
    expect(await pendingIn('audit')).toBe(3);
    const copies = await drain('billing');
    expect(copies.map((m: { payload: string }) => m.payload)).toEqual(['a', 'b', 'c']);
    copies.forEach((copy: { message_id: string; retry_count: number; headers: Record<string, string> }, i: number) => {
      expect(copy.message_id).not.toBe(originals[i].message_id);
      expect(copy.retry_count).toBe(0);
      expect(copy.headers).toMatchObject({
        'miniqueue-replay-of': originals[i].message_id,
        'miniqueue-replay-id': done.body.replay_id,
        'miniqueue-redelivered': 'true',
      });
      expect(Date.parse(copy.headers['miniqueue-original-published-at'])).toBeGreaterThan(Date.parse(since));
    });

    // After a message id: only what was published after it.
    const after = await replay('billing', { after_id: originals[0].message_id });
    expect(after.body.messages).toBe(2);
    expect((await drain('billing')).map((m: { headers: Record<string, string> }) => m.headers['miniqueue-replay-of'])).toEqual([
      originals[1].message_id,
      originals[2].message_id,
    ]);
  });

  it('never replays the copies themselves: a second replay of the same window copies the originals once more', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    // billing now holds 3 originals and 5 acked copies in its history.
    const again = await replay('billing', { since });
    expect(again.body.messages).toBe(3);
    expect(await drain('billing')).toHaveLength(3);
  });

  it('refuses a start earlier than the history reaches back, and queues that keep none, saying so', async () => {
    const old = await replay('billing', { since: new Date(Date.now() - 25 * 3600_000).toISOString() });
    expect(old.status).toBe(409);
    expect(old.body.code).toBe('history_not_retained');
    expect(old.body.message).toMatch(/keeps acked messages for 24 hours: replays can start at .* at the earliest/);
    expect((await mq.patch('/api/v1/queues/audit', { acked_retention_hours: 0 }, mq.adminKey)).status).toBe(200);
    const none = await replay('audit', { since: new Date().toISOString(), dry_run: true });
    expect(none.status).toBe(409);
    expect(none.body.message).toMatch(/keeps no acked messages/);
    expect((await mq.patch('/api/v1/queues/audit', { acked_retention_hours: 1 }, mq.adminKey)).status).toBe(200);
    expect((await replay('audit', { since: new Date(Date.now() - 2 * 3600_000).toISOString() })).status).toBe(409);
  });

  it('answers bad requests clearly', async () => {
    expect((await replay('nosuch', { since: new Date().toISOString() })).body.code).toBe('queue_not_found');
    expect((await replay('billing', { after_id: '0190a0b0-0000-7000-8000-000000000000' })).body.code).toBe('message_not_found');
    expect((await replay('billing', {})).status).toBe(400);
    expect((await replay('billing', { since: new Date().toISOString(), after_id: '0190a0b0-0000-7000-8000-000000000000' })).status).toBe(400);
    const narrow = await mq.clientKey('viewer', ['view']);
    expect((await mq.post('/api/v1/queues/billing/replay', { since: new Date().toISOString() }, narrow)).status).toBe(403);
  });

  it('a publisher cannot forge the replay headers', async () => {
    const forged = await mq.post('/api/v1/topics/orders/messages', { payload: 'x', headers: { 'MiniQueue-Replay-Of': 'y' } }, mq.adminKey);
    expect(forged.status).toBe(400);
    expect(forged.body.errors[0].message).toMatch(/reserved/);
  });
});

describe('large replays', () => {
  beforeAll(async () => {
    await topology(mq, 'bulk', [{ name: 'bulk-q' }]);
    await ackedHistory('bulk-q', 2_500);
  });

  it('a repeat with the same idempotency key continues the same replay instead of copying again', async () => {
    const since = new Date(Date.now() - 2 * 3600_000).toISOString();
    const first = await replay('bulk-q', { since }, 'replay-1');
    expect(first.body.messages).toBe(2_500);
    const repeat = await replay('bulk-q', { since }, 'replay-1');
    expect(repeat.body).toEqual(first.body);
    expect(await pendingIn('bulk-q')).toBe(2_500);
    const other = await replay('bulk-q', { since: new Date(Date.now() - 3600_000).toISOString() }, 'replay-1');
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_conflict');
    await mq.pool.query(`DELETE FROM message WHERE queue_name = 'bulk-q'`);
  });

  it('an interrupted replay, asked again, copies only what it had not copied yet', async () => {
    const since = new Date(Date.now() - 2 * 3600_000).toISOString();
    const started = await historyReplayInsert(mq.pool, 'bulk-q', { publishedAt: since, seq: 0 }, 'replay-2');
    // Two batches of 700 committed, then the instance died.
    for (let i = 0; i < 2; i += 1) {
      await withTransaction(mq.pool, async (client) => historyReplayBatch(client, (await historyReplayLock(client, started!.id))!, 24, 700));
    }
    expect(await pendingIn('bulk-q')).toBe(1_400);
    const resumed = await replay('bulk-q', { since }, 'replay-2');
    expect(resumed.body).toMatchObject({ replay_id: started!.id, messages: 2_500 });
    const { rows } = await mq.pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT headers->>'miniqueue-replay-of')::int AS originals FROM message WHERE queue_name = 'bulk-q'`,
    );
    expect(rows[0]).toEqual({ n: 2_500, originals: 2_500 });
    await mq.pool.query(`DELETE FROM message WHERE queue_name = 'bulk-q'`);
  });

  it('two calls with the same key at once copy every message once between them', async () => {
    const since = new Date(Date.now() - 2 * 3600_000).toISOString();
    const [a, b] = await Promise.all([replay('bulk-q', { since }, 'replay-3'), replay('bulk-q', { since }, 'replay-3')]);
    expect([a.body.messages, b.body.messages]).toEqual([2_500, 2_500]);
    const { rows } = await mq.pool.query(
      `SELECT count(*)::int AS n, count(DISTINCT headers->>'miniqueue-replay-of')::int AS originals FROM message WHERE queue_name = 'bulk-q'`,
    );
    expect(rows[0]).toEqual({ n: 2_500, originals: 2_500 });
  });

  it('forgets replay requests as old as idempotency keys; a repeat after that replays anew', async () => {
    const before = (await mq.pool.query('SELECT count(*)::int AS n FROM history_replay')).rows[0].n;
    expect(before).toBeGreaterThan(0);
    await idempotencyCleanup(mq.pool, 24).runOnce();
    expect((await mq.pool.query('SELECT count(*)::int AS n FROM history_replay')).rows[0].n).toBe(before);
    await mq.pool.query(`UPDATE history_replay SET created_at = now() - interval '25 hours'`);
    await idempotencyCleanup(mq.pool, 24).runOnce();
    expect((await mq.pool.query('SELECT count(*)::int AS n FROM history_replay')).rows[0].n).toBe(0);
  });
});
