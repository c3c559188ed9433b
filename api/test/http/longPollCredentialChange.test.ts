import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/auth/sessions.js';
import { startTestBroker, type TestBroker, type TestBrokerOptions } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import type { TestResponse } from '../helpers/http.js';
import { publishOne, topology } from '../helpers/fixtures.js';

let a: TestBroker;
let b: TestBroker;
beforeAll(async () => {
  const env: TestBrokerOptions['env'] = { MINIQUEUE_ADMINS: 'alice' };
  a = await startTestBroker({ env });
  b = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey, env });
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

/** A topic with one queue of the same name, for one test's messages alone. */
async function queueFor(name: string): Promise<string> {
  await topology(a, name, [{ name }]);
  return name;
}

/** Starts a long poll on `mq` and returns (wrapped, so it is not awaited) once that instance counts `waiting` long polls. */
async function waitingPoll(mq: TestBroker, queue: string, key: string, waiting: number) {
  const answer = mq.post(`/api/v1/queues/${queue}/consume?wait_seconds=20`, undefined, key);
  await eventually(() => mq.broker.context.waiters.size() === waiting, `${waiting} waiting long polls`);
  return { answer };
}

/** What the API says of a message now. */
const statusOf = async (id: string) => (await b.get(`/api/v1/messages/${id}`, a.adminKey)).body.status;

const unauthenticated = {
  status: 401,
  code: 'unauthenticated',
  message: 'Invalid, expired or revoked credential',
  errors: null,
  response_body: null,
};

/** Once the poll's credential has ended: a message published through `via` leaves the poll refused, and stays PENDING. */
async function refusedThoughPublished(poll: Promise<TestResponse>, via: TestBroker, queue: string): Promise<void> {
  const [id] = await publishOne(via, queue, 'not for an ended credential');
  expect((await poll).body).toEqual(unauthenticated);
  expect(await statusOf(id)).toBe('PENDING');
}

describe('a long poll whose credential ends while it waits on another instance', () => {
  for (const [change, end] of [
    ['revoked', (name: string) => b.del(`/api/v1/clients/${name}`, a.adminKey)],
    ['rotated', (name: string) => b.post(`/api/v1/clients/${name}/rotate`, undefined, a.adminKey)],
  ] as const) {
    it(`is answered 401 when its key is ${change}, and the next message stays PENDING`, async () => {
      const queue = await queueFor(`ends-${change}`);
      const key = await a.clientKey(`ends-${change}`, [`consume:${queue}`]);
      const { answer: poll } = await waitingPoll(a, queue, key, 1);

      expect([200, 204]).toContain((await end(`ends-${change}`)).status);
      const [id] = await publishOne(b, queue, 'not for a dead key');

      const answer = await poll;
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(unauthenticated);
      expect(await statusOf(id)).toBe('PENDING');
      // The same answer as a new request with the key gets now.
      const fresh = await a.post(`/api/v1/queues/${queue}/consume`, undefined, key);
      expect(fresh.body).toEqual(unauthenticated);
      expect(answer.headers['www-authenticate']).toBe(fresh.headers['www-authenticate']);
    });
  }

  it('is answered 403 scope_required when the scope is removed; a poll its scopes still allow keeps waiting', async () => {
    const [narrowed, kept] = [await queueFor('scope-narrowed'), await queueFor('scope-kept')];
    const key = await a.clientKey('narrowing-poller', [`consume:${narrowed}`, `consume:${kept}`]);
    const { answer: onNarrowed } = await waitingPoll(a, narrowed, key, 1);
    const { answer: onKept } = await waitingPoll(a, kept, key, 2);

    expect((await b.patch('/api/v1/clients/narrowing-poller', { scopes: [`consume:${kept}`] }, a.adminKey)).status).toBe(200);
    const [id] = await publishOne(b, narrowed, 'no longer yours');

    const refused = await onNarrowed;
    const expected = {
      status: 403,
      code: 'scope_required',
      message: `This needs the scope consume:${narrowed} (or admin)`,
      scope: `consume:${narrowed}`,
      errors: null,
      response_body: null,
    };
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(expected);
    expect(await statusOf(id)).toBe('PENDING');
    expect((await a.post(`/api/v1/queues/${narrowed}/consume`, undefined, key)).body).toEqual(expected);

    // Both polls were judged by the same read of the new scopes: the other one still waits.
    expect(a.broker.context.waiters.size()).toBe(1);
    const [keptId] = await publishOne(b, kept, 'still yours');
    const delivered = await onKept;
    expect(delivered.status).toBe(200);
    expect(delivered.body.message_id).toBe(keptId);
  });

  it("leaves another credential's waiter on the same queue waiting, and it gets the message", async () => {
    const queue = await queueFor('shared-queue');
    const doomed = await a.clientKey('doomed-poller', [`consume:${queue}`]);
    const bystander = await a.clientKey('bystander-poller', [`consume:${queue}`]);
    // The doomed poll waits longest, so it would be woken first.
    const { answer: doomedPoll } = await waitingPoll(a, queue, doomed, 1);
    const { answer: bystanderPoll } = await waitingPoll(a, queue, bystander, 2);

    expect((await b.del('/api/v1/clients/doomed-poller', a.adminKey)).status).toBe(204);
    const [id] = await publishOne(b, queue, 'for whoever may');

    expect((await doomedPoll).status).toBe(401);
    const delivered = await bystanderPoll;
    expect(delivered.status).toBe(200);
    expect(delivered.body).toMatchObject({ message_id: id, consumer_id: 'bystander-poller' });
    expect(await statusOf(id)).toBe('UNACKED');
  });
});

describe('a long poll whose credential ends on the instance it waits on', () => {
  it('is answered 401 at once, before a publish there can wake it', async () => {
    const queue = await queueFor('ends-here');
    const key = await a.clientKey('ends-here', [`consume:${queue}`]);
    const { answer: poll } = await waitingPoll(a, queue, key, 1);

    expect((await a.del('/api/v1/clients/ends-here', a.adminKey)).status).toBe(204);
    // Stopped before the revocation was answered, not when its notification came back.
    expect(a.broker.context.waiters.size()).toBe(0);
    await refusedThoughPublished(poll, a, queue);
  });
});

describe('a long poll of a dashboard session that signs out elsewhere', () => {
  it('is answered 401, and the message stays PENDING', async () => {
    const queue = await queueFor('session-ends');
    const { token } = await createSession(a.pool, { githubId: '4242', login: 'alice' });
    const { answer: poll } = await waitingPoll(a, queue, token, 1);

    expect((await b.post('/api/v1/auth/logout', undefined, token)).status).toBe(204);
    await refusedThoughPublished(poll, b, queue);
  });
});

describe('a long poll whose revocation was never heard of', () => {
  it('is answered 401 when the bus reconnects (reset) and its credential is read again', async () => {
    const queue = await queueFor('missed-revocation');
    const key = await a.clientKey('missed-revocation', [`consume:${queue}`]);
    const { answer: poll } = await waitingPoll(a, queue, key, 1);

    // Revoked behind the broker's back, without its notification, as when the bus was away.
    await a.pool.query(`BEGIN;
      ALTER TABLE client DISABLE TRIGGER client_key_changed;
      UPDATE client SET revoked_at = now() WHERE name = 'missed-revocation';
      ALTER TABLE client ENABLE TRIGGER client_key_changed;
      COMMIT;`);
    expect(a.broker.context.waiters.size()).toBe(1);
    a.broker.context.bus.emit('reset');

    expect((await poll).body).toEqual(unauthenticated);
  });
});
