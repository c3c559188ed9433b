import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseSweeper } from '../../src/jobs/leaseSweeper.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { expireAllLeases, publishOne, statusOf, topology } from '../helpers/fixtures.js';

type Status = 'PENDING' | 'UNACKED' | 'ACKED' | 'DEAD';
const STATUSES: Status[] = ['PENDING', 'UNACKED', 'ACKED', 'DEAD'];

let mq: TestBroker;
let consumer: string;
let counter = 0;

beforeAll(async () => {
  mq = await startTestBroker();
  await topology(mq, 'sm', [{ name: 'sm-q', max_retries: 5 }]);
  consumer = await mq.clientKey('sm-consumer', ['consume:sm-q']);
});
afterAll(() => mq.stop());

/** A fresh message brought into `status` through the real transitions; UNACKED is held by `consumer`. */
async function messageIn(status: Status): Promise<string> {
  const [id] = await publishOne(mq, 'sm', `m${(counter += 1)}`);
  if (status === 'PENDING') return id;
  // Only this message is claimable: everything earlier was settled or parked below.
  const claimed = await mq.post('/api/v1/queues/sm-q/consume', undefined, consumer);
  expect(claimed.body.message_id).toBe(id);
  if (status === 'ACKED') await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer);
  if (status === 'DEAD') await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, consumer);
  return id;
}

/** Leaves no claimable message behind, so the next messageIn() claims its own. */
async function park(id: string): Promise<void> {
  await mq.pool.query('DELETE FROM message WHERE id = $1', [id]);
}

/** Each event returns its HTTP status, or null when it is a background job (no answer to check). */
const events: Record<string, { allowedFrom: Status[]; repeatFrom?: Status[]; run: (id: string) => Promise<number | null>; after: Status }> = {
  ack: {
    allowedFrom: ['UNACKED'],
    // The holder's own ack again (its first answer lost): answered as done, and nothing changes.
    repeatFrom: ['ACKED'],
    after: 'ACKED',
    run: async (id) => (await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer)).status,
  },
  'nack (requeue)': {
    allowedFrom: ['UNACKED'],
    after: 'PENDING',
    run: async (id) => (await mq.post(`/api/v1/messages/${id}/nack`, {}, consumer)).status,
  },
  'nack (dead-letter)': {
    allowedFrom: ['UNACKED'],
    after: 'DEAD',
    run: async (id) => (await mq.post(`/api/v1/messages/${id}/nack`, { requeue: false }, consumer)).status,
  },
  extend: {
    allowedFrom: ['UNACKED'],
    after: 'UNACKED',
    run: async (id) => (await mq.post(`/api/v1/messages/${id}/extend`, { seconds: 60 }, consumer)).status,
  },
  'lease expiry': {
    allowedFrom: ['UNACKED'],
    after: 'PENDING',
    run: async () => {
      await expireAllLeases(mq);
      await leaseSweeper(mq.pool, mq.broker.context.changes).runOnce();
      return null;
    },
  },
  replay: {
    allowedFrom: ['DEAD'],
    after: 'PENDING',
    run: async (id) => (await mq.post(`/api/v1/dashboard/dlq/${id}/replay`, undefined, mq.adminKey)).status,
  },
};

describe('every (status × event) pair', () => {
  for (const [event, rule] of Object.entries(events)) {
    for (const status of STATUSES) {
      const allowed = rule.allowedFrom.includes(status);
      const repeat = rule.repeatFrom?.includes(status) ?? false;
      it(`${event} on ${status} is ${allowed ? `allowed → ${rule.after}` : repeat ? 'a repeat: done, unchanged' : 'refused'}`, async () => {
        const id = await messageIn(status);
        const before = await statusOf(mq, id);
        const answer = await rule.run(id);
        const after = await statusOf(mq, id);
        if (answer !== null) expect(answer).toBe(allowed || repeat ? 200 : 409);
        if (allowed) expect(after?.status).toBe(rule.after);
        else expect(after).toEqual(before);
        await park(id);
      });
    }
  }

  it('claim takes only PENDING messages that are available', async () => {
    for (const status of STATUSES) {
      const id = await messageIn(status);
      const claimed = await mq.post('/api/v1/queues/sm-q/consume', undefined, consumer);
      if (status === 'PENDING') expect(claimed.body.message_id).toBe(id);
      else expect(claimed.status).toBe(204);
      await park(id);
    }
  });

  it('refusals carry the contract status: 409 wrong state, 404 unknown or of another queue', async () => {
    const pending = await messageIn('PENDING');
    const refused = await mq.post(`/api/v1/messages/${pending}/ack`, undefined, consumer);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('PENDING');
    await park(pending);
    const unknown = await mq.post('/api/v1/messages/00000000-0000-4000-8000-000000000000/ack', undefined, consumer);
    expect(unknown.status).toBe(404);
    const outsider = await mq.clientKey('sm-outsider', ['consume:other-queue']);
    const held = await messageIn('UNACKED');
    expect((await mq.post(`/api/v1/messages/${held}/ack`, undefined, outsider)).status).toBe(404);
    expect((await mq.post(`/api/v1/messages/${held}/nack`, {}, outsider)).status).toBe(404);
    await park(held);
  });

  it('only the holder settles: another consumer of the same queue gets 409', async () => {
    const rival = await mq.clientKey('sm-rival', ['consume:sm-q']);
    const id = await messageIn('UNACKED');
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, rival)).status).toBe(409);
    expect((await mq.post(`/api/v1/messages/${id}/extend`, { seconds: 5 }, rival)).status).toBe(409);
    // The same client from another replica is another consumer too.
    const replica = await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer, { 'MiniQueue-Instance': 'replica-2' });
    expect(replica.status).toBe(409);
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer)).status).toBe(200);
    // Once acked, only its holder's repeat is answered as done.
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, rival)).status).toBe(409);
    expect((await mq.post(`/api/v1/messages/${id}/ack`, undefined, consumer, { 'MiniQueue-Instance': 'replica-2' })).status).toBe(409);
  });
});
