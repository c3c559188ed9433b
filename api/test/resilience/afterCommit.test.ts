import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Claimer } from '../../src/broker/claimer.js';
import { Publisher, type PublishItem } from '../../src/broker/publish.js';
import { Settler, type Holder } from '../../src/broker/settle.js';
import { Changes } from '../../src/broker/changes.js';
import { ALL_MESSAGES } from '../helpers/allMessages.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { topology } from '../helpers/fixtures.js';
import { pauseBefore } from './support/pausingPool.js';

/**
 * A group commit whose statement has committed must answer every request from what it stored:
 * never run it again (a second copy of every unkeyed publish) nor fail it (a 503 or a 409 for what
 * was stored or settled), whatever happens to the statement that follows it. Each case pauses the
 * batch right before that follow-up statement, on the connection that runs it, and then cancels
 * or terminates exactly that backend.
 */

const TOPIC = 'after-commit.events';
const QUEUE = 'after-commit';
const OWNER = 'after-commit-owner';
const groupCommit = { maxBatch: 256, maxInFlight: 2, maxWaiting: 10_000 };
const FAULTS = { cancel: 'pg_cancel_backend', terminate: 'pg_terminate_backend' } as const;
type Fault = keyof typeof FAULTS;

let mq: TestBroker;
let admin: pg.Client;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, TOPIC, [{ name: QUEUE, max_retries: 5 }]);
  admin = new pg.Client({ connectionString: mq.databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await mq?.stop();
});

/** Once the paused backend is inside its pg_sleep (a cancel only reaches a running statement), strike it. */
async function strike(paused: Promise<number>, fault: Fault): Promise<void> {
  const pid = await paused;
  await eventually(async () => {
    const { rows } = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE '%pg_sleep(60)%'`, [pid]);
    return rows.length === 1;
  }, 'the paused statement');
  const { rows } = await admin.query<{ done: boolean }>(`SELECT ${FAULTS[fault]}($1) AS done`, [pid]);
  expect(rows[0].done).toBe(true);
}

const settledAll = <T>(promises: Promise<T>[]) => Promise.allSettled(promises);
const item = (payload: string, idempotencyKey?: string): PublishItem => ({ payload, headers: {}, delaySeconds: 0, idempotencyKey });
const publisherOn = (pool: TestBroker['pool']) => new Publisher({ pool, changes: new Changes(), idempotencyTtlHours: 24, groupCommit });
const settlerOn = (pool: TestBroker['pool']) => new Settler({ pool, changes: new Changes(), ackedRetentionHours: 1, groupCommit });

async function storedCopies(payload: string): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(`SELECT id FROM ${ALL_MESSAGES} WHERE payload = $1`, [payload]);
  return rows.map((row) => row.id);
}

/** Publishes `count` messages and claims them all for a new holder. */
async function claimed(count: number): Promise<{ ids: string[]; holder: Holder }> {
  // What an earlier case left claimable (a nacked message) would otherwise be claimed first.
  await admin.query(`DELETE FROM message WHERE queue_name = $1 AND status <> 'UNACKED'`, [QUEUE]);
  const publisher = publisherOn(mq.pool);
  for (let i = 0; i < count; i += 1) await publisher.publishOne(OWNER, TOPIC, item(`held-${randomUUID()}`));
  const holder: Holder = { holder: `holder-${randomUUID()}`, consumerId: 'after-commit', queues: null };
  const rows = await new Claimer({ pool: mq.pool, groupCommit }).claim({ queue: QUEUE, holder: holder.holder, consumerId: holder.consumerId, limit: count });
  expect(rows).toHaveLength(count);
  return { ids: rows.map((row) => row.id), holder };
}

async function statusOf(id: string): Promise<{ status: string; retry_count: number }> {
  const { rows } = await admin.query(`SELECT status, retry_count FROM ${ALL_MESSAGES} WHERE id = $1`, [id]);
  return rows[0];
}

describe.each(Object.keys(FAULTS) as Fault[])('a group commit whose follow-up statement is hit by %s', (fault) => {
  it('stores each single publish once, and answers a failure only for what was not stored', async () => {
    // A key taken by an earlier publish: its repeat makes the batch look the earlier result up.
    const key = `key-${randomUUID()}`;
    const first = await publisherOn(mq.pool).publishOne(OWNER, TOPIC, item(`keyed-${key}`, key));
    const paused = pauseBefore(mq.pool, 'idempotency_find');
    const publisher = publisherOn(paused.pool);
    const plain = Array.from({ length: 5 }, (_, i) => `plain-${fault}-${i}-${randomUUID()}`);
    const answers = settledAll([
      publisher.publishOne(OWNER, TOPIC, item(`keyed-${key}`, key)),
      ...plain.map((payload) => publisher.publishOne(OWNER, TOPIC, item(payload))),
    ]);
    await strike(paused.paused, fault);
    const [repeat, ...outcomes] = await answers;

    if (repeat.status === 'fulfilled') expect(repeat.value).toEqual({ ...first, duplicate: true });
    for (const [index, payload] of plain.entries()) {
      const copies = await storedCopies(payload);
      const outcome = outcomes[index];
      if (outcome.status === 'fulfilled') expect(copies, `${payload}: answered stored`).toEqual(outcome.value.message_ids);
      else expect(copies, `${payload}: answered ${String(outcome.reason)}`).toEqual([]);
    }
  });

  it('answers an ack that committed as acked, whatever became of the others of its batch', async () => {
    const { ids, holder } = await claimed(1);
    const paused = pauseBefore(mq.pool, 'message_find_state');
    const settler = settlerOn(paused.pool);
    // The unknown id leaves the statement with something to explain: the follow-up read.
    const answers = settledAll([settler.ackMany(ids, holder), settler.ackMany([randomUUID()], holder)]);
    await strike(paused.paused, fault);
    const [acked, other] = await answers;
    expect((await statusOf(ids[0])).status).toBe('ACKED');
    expect(acked.status, String(acked.status === 'rejected' && acked.reason)).toBe('fulfilled');
    if (acked.status === 'fulfilled') {
      expect(acked.value.failed).toEqual([]);
      expect(acked.value.acked.map((row) => [row.id, row.repeated])).toEqual([[ids[0], false]]);
    }
    // The other was not acked, and is not answered as if it were.
    if (other.status === 'fulfilled') expect(other.value.acked).toEqual([]);
  });

  it('answers a nack that committed with its outcome, never 409 or 503', async () => {
    const { ids, holder } = await claimed(1);
    const paused = pauseBefore(mq.pool, 'message_find_state');
    const settler = settlerOn(paused.pool);
    const options = { requeue: true, delaySeconds: 0, reason: null };
    const answers = settledAll([settler.nackOne(ids[0], holder, options), settler.nackOne(randomUUID(), holder, options)]);
    await strike(paused.paused, fault);
    const [nacked, other] = await answers;
    expect(await statusOf(ids[0])).toMatchObject({ status: 'PENDING', retry_count: 1 });
    expect(nacked.status, String(nacked.status === 'rejected' && nacked.reason)).toBe('fulfilled');
    if (nacked.status === 'fulfilled') expect(nacked.value).toMatchObject({ id: ids[0], status: 'PENDING' });
    expect(other.status).toBe('rejected');
  });
});
