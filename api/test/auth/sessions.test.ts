import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { startTestBroker } from '../helpers/broker.js';
import { hashSecret } from '../../src/auth/secrets.js';
import { authSweeper } from '../../src/jobs/authSweeper.js';
import { startFakeGithub, type FakeGithub } from './fakeGithub.js';
import { githubEnv, sessionToken, signIn } from './flow.js';
import { expectNoSecretsIn, startLoggedBroker, type LogLines } from './support.js';

const alice = { id: 2001, login: 'alice' };
const bob = { id: 2002, login: 'bob' };

let github: FakeGithub;
let a: TestBroker;
let b: TestBroker;
const logs: LogLines = [];
const secrets: string[] = [];

/** Notifications on miniqueue_auth, as every instance hears them. */
const authEvents: unknown[] = [];

beforeAll(async () => {
  github = await startFakeGithub();
  a = await startLoggedBroker({ logs, env: githubEnv(github, { MINIQUEUE_ADMINS: 'alice' }) });
  // A second instance of the same broker: same database, same configuration.
  b = await startLoggedBroker({ logs, databaseUrl: a.databaseUrl, adminKey: a.adminKey, env: githubEnv(github, { MINIQUEUE_ADMINS: 'alice' }) });
  b.broker.context.bus.on('auth', (event) => void authEvents.push(event));
});
afterAll(async () => {
  await b.stop();
  await a.stop();
  await github.close();
});

const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('exchanging a login code', () => {
  it('gives an 8-hour mqs_ session, stored only as a hash', async () => {
    const code = await signIn(a, github, alice);
    const response = await a.post('/api/v1/auth/exchange', { code });
    expect(response.status).toBe(200);
    const { token, expires_at: expiresAt } = response.body;
    secrets.push(code, token);
    expect(token).toMatch(/^mqs_[A-Za-z0-9_-]{43}$/);
    const hours = (Date.parse(expiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(7.99);
    expect(hours).toBeLessThanOrEqual(8);
    const { rows } = await a.pool.query('SELECT token_hash FROM dashboard_session WHERE token_hash = $1', [hashSecret(token)]);
    expect(rows).toHaveLength(1);
    const leaked = await a.pool.query(`SELECT 1 FROM dashboard_session WHERE position($1 in login) > 0`, [token]);
    expect(leaked.rows).toHaveLength(0);
    expect((await a.get('/api/v1/auth/me', token)).body).toEqual({ name: 'alice', kind: 'session', scopes: ['admin'] });
  });

  it('works once', async () => {
    const code = await signIn(a, github, bob);
    expect((await a.post('/api/v1/auth/exchange', { code })).status).toBe(200);
    const again = await a.post('/api/v1/auth/exchange', { code });
    expect(again.status).toBe(401);
  });

  it('works on another instance than the one that issued it', async () => {
    const code = await signIn(a, github, bob);
    const response = await b.post('/api/v1/auth/exchange', { code });
    expect(response.status).toBe(200);
    expect((await a.get('/api/v1/auth/me', response.body.token)).body.name).toBe('bob');
  });

  it('has exactly one winner when redeemed concurrently on two instances', async () => {
    const code = await signIn(a, github, bob);
    const attempts = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? a : b).post('/api/v1/auth/exchange', { code })));
    const statuses = attempts.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 401, 401, 401, 401, 401, 401, 401]);
  });

  it('expires after 60 seconds', async () => {
    const code = await signIn(a, github, bob);
    const { rows } = await a.pool.query(`SELECT extract(epoch FROM expires_at - now()) AS left FROM login_code WHERE code_hash = $1`, [hashSecret(code)]);
    expect(Number(rows[0].left)).toBeGreaterThan(55);
    expect(Number(rows[0].left)).toBeLessThanOrEqual(60);
    await a.pool.query(`UPDATE login_code SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [hashSecret(code)]);
    expect((await a.post('/api/v1/auth/exchange', { code })).status).toBe(401);
  });

  it('refuses unknown codes and bad bodies', async () => {
    expect((await a.post('/api/v1/auth/exchange', { code: 'lc_nope' })).status).toBe(401);
    expect((await a.post('/api/v1/auth/exchange', {})).status).toBe(400);
    expect((await a.post('/api/v1/auth/exchange', { code: 'lc_x', extra: 1 })).status).toBe(400);
  });
});

describe('logout', () => {
  it('ends the session on every instance at once, and announces it', async () => {
    const token = await sessionToken(a, github, alice);
    const me = await b.get('/api/v1/auth/me', token);
    expect(me.status).toBe(200);
    const { rows } = await a.pool.query('SELECT id FROM dashboard_session WHERE token_hash = $1', [hashSecret(token)]);
    const sessionId = rows[0].id;

    expect((await b.post('/api/v1/auth/logout', undefined, token)).status).toBe(204);
    expect((await a.get('/api/v1/auth/me', token)).status).toBe(401);
    expect((await b.get('/api/v1/auth/me', token)).status).toBe(401);
    expect((await a.post('/api/v1/auth/logout', undefined, token)).status).toBe(401);
    await until(() => authEvents.some((event) => JSON.stringify(event) === JSON.stringify({ kind: 'session', id: sessionId })));
  });

  it('is only for sessions: an API key gets 403', async () => {
    expect((await a.post('/api/v1/auth/logout', undefined, a.adminKey)).status).toBe(403);
  });
});

describe('roles follow MINIQUEUE_ADMINS at request time', () => {
  it('takes admin away from a live session as soon as the instance no longer lists the login', async () => {
    const token = await sessionToken(a, github, alice);
    const demoted = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey, env: githubEnv(github, { MINIQUEUE_ADMINS: 'someone-else' }) });
    try {
      expect((await a.get('/api/v1/auth/me', token)).body.scopes).toEqual(['admin']);
      expect((await demoted.get('/api/v1/auth/me', token)).body.scopes).toEqual(['view']);
      expect((await demoted.get('/api/v1/clients', token)).status).toBe(403);
      expect((await a.get('/api/v1/clients', token)).status).toBe(200);
    } finally {
      await demoted.stop();
    }
  });

  it('ends a viewer session when viewers are no longer allowed', async () => {
    const token = await sessionToken(a, github, bob);
    const closed = await startTestBroker({
      databaseUrl: a.databaseUrl,
      adminKey: a.adminKey,
      env: githubEnv(github, { MINIQUEUE_ADMINS: 'alice', MINIQUEUE_PUBLIC_VIEWER: 'false' }),
    });
    try {
      expect((await closed.get('/api/v1/auth/me', token)).status).toBe(401);
      expect((await a.get('/api/v1/auth/me', token)).status).toBe(200);
    } finally {
      await closed.stop();
    }
  });
});

describe('expiry', () => {
  it('refuses an expired session at once, and the sweeper deletes it and announces its end', async () => {
    const token = await sessionToken(a, github, bob);
    const { rows } = await a.pool.query(`UPDATE dashboard_session SET expires_at = now() - interval '1 second' WHERE token_hash = $1 RETURNING id`, [
      hashSecret(token),
    ]);
    expect((await a.get('/api/v1/auth/me', token)).status).toBe(401);
    const swept = await authSweeper(a.pool).runOnce();
    expect(swept).toMatchObject({ sessions: 1 });
    await until(() => authEvents.some((event) => JSON.stringify(event) === JSON.stringify({ kind: 'session', id: rows[0].id })));
    const left = await a.pool.query('SELECT 1 FROM dashboard_session WHERE id = $1', [rows[0].id]);
    expect(left.rows).toHaveLength(0);
  });

  it('sweeps expired login codes and keeps live ones', async () => {
    const live = await signIn(a, github, bob);
    const dead = await signIn(a, github, bob);
    await a.pool.query(`UPDATE login_code SET expires_at = now() - interval '1 second' WHERE code_hash = $1`, [hashSecret(dead)]);
    await authSweeper(a.pool).runOnce();
    const { rows } = await a.pool.query('SELECT code_hash FROM login_code');
    const hashes = rows.map((row) => Buffer.from(row.code_hash).toString('hex'));
    expect(hashes).toContain(hashSecret(live).toString('hex'));
    expect(hashes).not.toContain(hashSecret(dead).toString('hex'));
  });
});

describe('logs', () => {
  it('never hold a session token or login code', () => {
    expectNoSecretsIn(logs, [a.adminKey, ...secrets, ...github.tokens]);
  });
});
