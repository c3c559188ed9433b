import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { startTestBroker } from '../helpers/broker.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { redeemWsTicket } from '../../src/auth/tickets.js';
import { authSweeper } from '../../src/jobs/authSweeper.js';
import { startFakeGithub, type FakeGithub } from './fakeGithub.js';
import { githubEnv, sessionToken } from './flow.js';
import { expectNoSecretsIn, startLoggedBroker, type LogLines } from './support.js';

let github: FakeGithub;
let a: TestBroker;
let b: TestBroker;
const logs: LogLines = [];
const secrets: string[] = [];

beforeAll(async () => {
  github = await startFakeGithub();
  a = await startLoggedBroker({ logs, env: githubEnv(github, { MINIQUEUE_ADMINS: 'carol' }) });
  b = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
});
afterAll(async () => {
  await b.stop();
  await a.stop();
  await github.close();
});

async function ticketFor(mq: TestBroker, credential: string): Promise<string> {
  const response = await mq.post('/api/v1/auth/ws-ticket', undefined, credential);
  expect(response.status).toBe(200);
  secrets.push(response.body.ticket);
  return response.body.ticket;
}

describe('WebSocket tickets', () => {
  it('carry the principal of an API key, with the credential id of the key', async () => {
    const key = await a.clientKey('ticket-consumer', ['consume:email-queue']);
    const response = await a.post('/api/v1/auth/ws-ticket', undefined, key);
    expect(response.body.ticket).toMatch(/^wst_[A-Za-z0-9_-]{43}$/);
    const seconds = (Date.parse(response.body.expires_at) - Date.now()) / 1000;
    expect(seconds).toBeGreaterThan(25);
    expect(seconds).toBeLessThanOrEqual(30);
    const { rows } = await a.pool.query(`SELECT id FROM client WHERE name = 'ticket-consumer' AND revoked_at IS NULL`);
    // Redeemed through the other instance's connections: tickets live in PostgreSQL.
    const principal = await redeemWsTicket(b.pool, response.body.ticket);
    expect(principal).toEqual({
      name: 'ticket-consumer',
      kind: 'client',
      scopes: ['consume:email-queue'],
      owner: `client:${rows[0].id}`,
      credentialId: rows[0].id,
    });
  });

  it('carry the principal of a session, with the session id', async () => {
    const token = await sessionToken(a, github, { id: 3001, login: 'carol' });
    secrets.push(token);
    const principal = await redeemWsTicket(b.pool, await ticketFor(a, token));
    const { rows } = await a.pool.query('SELECT id FROM dashboard_session WHERE token_hash = $1', [hashSecret(token)]);
    expect(principal).toEqual({ name: 'carol', kind: 'session', scopes: ['admin'], owner: 'github:3001', credentialId: rows[0].id });
  });

  it('work once', async () => {
    const ticket = await ticketFor(a, a.adminKey);
    expect(await redeemWsTicket(a.pool, ticket)).not.toBeNull();
    expect(await redeemWsTicket(a.pool, ticket)).toBeNull();
    expect(await redeemWsTicket(b.pool, ticket)).toBeNull();
  });

  it('have exactly one winner when redeemed concurrently from two instances', async () => {
    const ticket = await ticketFor(a, a.adminKey);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => redeemWsTicket((i % 2 ? a : b).pool, ticket)));
    expect(results.filter((principal) => principal !== null)).toHaveLength(1);
  });

  it('expire after 30 seconds', async () => {
    const ticket = await ticketFor(a, a.adminKey);
    await a.pool.query(`UPDATE ws_ticket SET expires_at = now() - interval '1 millisecond' WHERE ticket_hash = $1`, [hashSecret(ticket)]);
    expect(await redeemWsTicket(a.pool, ticket)).toBeNull();
  });

  it('die with their credential: a revoked key or an ended session', async () => {
    const key = await a.clientKey('short-lived', ['view']);
    const ticket = await ticketFor(a, key);
    expect((await a.del('/api/v1/clients/short-lived', a.adminKey)).status).toBe(204);
    expect(await redeemWsTicket(a.pool, ticket)).toBeNull();

    const token = await sessionToken(a, github, { id: 3002, login: 'dave' });
    secrets.push(token);
    const sessionTicket = await ticketFor(a, token);
    expect((await a.post('/api/v1/auth/logout', undefined, token)).status).toBe(204);
    expect(await redeemWsTicket(a.pool, sessionTicket)).toBeNull();
  });

  it('are refused without a credential, and unknown tickets redeem to nothing', async () => {
    expect((await a.post('/api/v1/auth/ws-ticket')).status).toBe(401);
    expect(await redeemWsTicket(a.pool, 'wst_unknown')).toBeNull();
    expect(await redeemWsTicket(a.pool, 'mq_not-a-ticket')).toBeNull();
  });

  it('are swept once expired', async () => {
    const live = await ticketFor(a, a.adminKey);
    const dead = await ticketFor(a, a.adminKey);
    await a.pool.query(`UPDATE ws_ticket SET expires_at = now() - interval '1 second' WHERE ticket_hash = $1`, [hashSecret(dead)]);
    expect(await authSweeper(a.pool).runOnce()).toMatchObject({ tickets: 1 });
    expect(await redeemWsTicket(a.pool, live)).not.toBeNull();
  });
});

describe('logs', () => {
  it('never hold a ticket', () => {
    expectNoSecretsIn(logs, [a.adminKey, ...secrets]);
  });
});
