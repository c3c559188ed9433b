import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { createSession } from '../../src/auth/sessions.js';
import { CLOSE_CREDENTIAL_ENDED, CLOSE_QUEUE_DELETED } from '../../src/realtime/hub.js';
import { eventually, hubOf, openSocket, refusalOf, rotationReady, startPair, ticket } from './support.js';

let a: TestBroker;
let b: TestBroker;

beforeAll(async () => {
  [a, b] = await startPair();
  await topology(a, 'orders', [{ name: 'email' }, { name: 'doomed' }]);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe('sockets end with their credential, on every instance', () => {
  it("closes a revoked key's sockets, whether opened with the key or with its ticket", async () => {
    const key = await a.clientKey('leaving', ['consume:email', 'view']);
    const bystanderKey = await a.clientKey('staying', ['consume:email']);
    const consumer = await openSocket(a, '/ws/consume?queue=email', { key });
    const monitor = await openSocket(b, `/ws/monitor?ticket=${await ticket(b, key)}`);
    const bystander = await openSocket(b, '/ws/consume?queue=email', { key: bystanderKey });
    await rotationReady([a, b], 'email', 2);

    expect((await b.del('/api/v1/clients/leaving', a.adminKey)).status).toBe(204);

    expect((await consumer.closed).code).toBe(CLOSE_CREDENTIAL_ENDED);
    expect((await monitor.closed).code).toBe(CLOSE_CREDENTIAL_ENDED);
    await rotationReady([a, b], 'email', 1);
    expect(bystander.ws.readyState).toBe(bystander.ws.OPEN);
    bystander.ws.close();
    await bystander.closed;
  });

  it("closes a rotated key's sockets: the client keeps its id, its old key is dead", async () => {
    const key = await a.clientKey('rotating', ['view']);
    const socket = await openSocket(b, '/ws/monitor', { key });
    expect((await a.post('/api/v1/clients/rotating/rotate', undefined, a.adminKey)).status).toBe(200);
    expect((await socket.closed).code).toBe(CLOSE_CREDENTIAL_ENDED);
  });

  it('closes the sockets of a session that logs out, opened with it directly or with its ticket', async () => {
    const session = await createSession(a.pool, { githubId: '42', login: 'octocat' });
    const direct = await openSocket(a, '/ws/monitor', { key: session.token });
    const viaTicket = await openSocket(b, `/ws/monitor?ticket=${await ticket(a, session.token)}`);
    expect((await a.post('/api/v1/auth/logout', undefined, session.token)).status).toBe(204);
    expect((await direct.closed).code).toBe(CLOSE_CREDENTIAL_ENDED);
    expect((await viaTicket.closed).code).toBe(CLOSE_CREDENTIAL_ENDED);
  });

  it('refuses, on every instance, tickets minted before a rotation, a revocation or a sign-out, and closes what they opened', async () => {
    const rotating = await a.clientKey('ticket-rotating', ['view']);
    const revoked = await a.clientKey('ticket-revoked', ['view']);
    const session = await createSession(a.pool, { githubId: '43', login: 'hubot' });
    const credentials = [rotating, revoked, session.token];
    // For each credential: a socket opened on B with a ticket from A, and a ticket from A not used yet.
    const opened = await Promise.all(credentials.map(async (credential) => openSocket(b, `/ws/monitor?ticket=${await ticket(a, credential)}`)));
    const unused = await Promise.all(credentials.map((credential) => ticket(a, credential)));

    expect((await a.post('/api/v1/clients/ticket-rotating/rotate', undefined, a.adminKey)).status).toBe(200);
    expect((await a.del('/api/v1/clients/ticket-revoked', a.adminKey)).status).toBe(204);
    expect((await a.post('/api/v1/auth/logout', undefined, session.token)).status).toBe(204);

    for (const socket of opened) expect((await socket.closed).code).toBe(CLOSE_CREDENTIAL_ENDED);
    for (const [i, unusedTicket] of unused.entries()) {
      expect([i, (await refusalOf(i % 2 ? a : b, `/ws/monitor?ticket=${unusedTicket}`)).status]).toEqual([i, 401]);
    }
  });

  it('refuses a ticket minted with the old key by an instance that had not heard of the rotation yet', async () => {
    const key = await a.clientKey('ticket-stale', ['view']);
    // B keeps the old key in its cache: its notification of the rotation is held back.
    expect((await b.get('/api/v1/topics', key)).status).toBe(200);
    const auth = b.broker.context.bus.listeners('auth') as ((event: unknown) => void)[];
    for (const listener of auth) b.broker.context.bus.off('auth', listener);
    try {
      expect((await a.post('/api/v1/clients/ticket-stale/rotate', undefined, a.adminKey)).status).toBe(200);
      const stale = await b.post('/api/v1/auth/ws-ticket', undefined, key);
      expect(stale.status).toBe(200);
      expect((await refusalOf(a, `/ws/monitor?ticket=${stale.body.ticket}`)).status).toBe(401);
    } finally {
      for (const listener of auth) b.broker.context.bus.on('auth', listener);
    }
  });

  it("closes a deleted queue's consumer sockets", async () => {
    const socket = await openSocket(b, '/ws/consume?queue=doomed', { key: a.adminKey });
    expect((await a.del('/api/v1/queues/doomed', a.adminKey)).status).toBe(204);
    expect((await socket.closed).code).toBe(CLOSE_QUEUE_DELETED);
  });
});

describe('ping/pong', () => {
  it('terminates a peer that stopped answering pings, and keeps one that answers', async () => {
    const silent = await openSocket(a, '/ws/consume?queue=email', { key: a.adminKey, autoPong: false });
    const lively = await openSocket(a, '/ws/monitor', { key: a.adminKey });
    const heartbeat = hubOf(a).heartbeat;

    heartbeat.runOnce(); // both pinged
    await eventually(() => heartbeat.unanswered() === 1, 'the lively peer to answer');
    heartbeat.runOnce(); // the silent one never answered

    expect((await silent.closed).code).toBe(1006);
    await rotationReady([a, b], 'email', 0);
    expect(lively.ws.readyState).toBe(lively.ws.OPEN);
    lively.ws.close();
  });
});
