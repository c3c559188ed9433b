import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { startTestBroker } from '../helpers/broker.js';
import { startFakeGithub, type FakeGithub } from './fakeGithub.js';
import { CALLBACK_URL, DASHBOARD_URL, callback, githubEnv, loginCodeOf, signIn, startSignIn } from './flow.js';
import { expectNoSecretsIn, startLoggedBroker, type LogLines } from './support.js';

const alice = { id: 1001, login: 'Alice' };
const bob = { id: 1002, login: 'bob' };

let github: FakeGithub;
let mq: TestBroker;
const logs: LogLines = [];
const secrets: string[] = [];

beforeAll(async () => {
  github = await startFakeGithub();
  mq = await startLoggedBroker({ logs, env: githubEnv(github, { MINIQUEUE_ADMINS: 'alice' }) });
});
afterAll(async () => {
  await mq.stop();
  await github.close();
});

describe('starting GitHub sign-in', () => {
  it('redirects to GitHub with a random state, the configured callback and no OAuth scope', async () => {
    const first = await startSignIn(mq);
    const second = await startSignIn(mq);
    expect(`${first.location.origin}${first.location.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(first.location.searchParams.get('client_id')).toBe(github.clientId);
    expect(first.location.searchParams.get('redirect_uri')).toBe(CALLBACK_URL);
    expect(first.location.searchParams.get('response_type')).toBe('code');
    expect(first.location.searchParams.has('scope')).toBe(false);
    expect(first.state.length).toBeGreaterThanOrEqual(20);
    expect(second.state).not.toBe(first.state);
  });

  it('keeps the state in a 10-minute HttpOnly SameSite=Lax cookie, not Secure over plain HTTP', async () => {
    const { setCookie } = await startSignIn(mq);
    expect(setCookie).toMatch(/^miniqueue-oauth-state=/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).toMatch(/; Max-Age=600/);
    expect(setCookie).not.toMatch(/; Secure/);
  });

  it('takes the callback from configuration, whatever Host the request names', async () => {
    const response = await mq.request('GET', '/api/v1/auth/github/login', { headers: { host: 'evil.example' } });
    expect(new URL(String(response.headers.location)).searchParams.get('redirect_uri')).toBe(CALLBACK_URL);
  });

  it('starts afresh when the start of sign-in is given a code (never treated as a callback)', async () => {
    const response = await mq.request('GET', '/api/v1/auth/github/login?code=abc&state=x&error=access_denied');
    expect(response.status).toBe(302);
    expect(String(response.headers.location)).toMatch(new RegExp(`^${github.url}/login/oauth/authorize\\?`));
  });
});

describe('the callback', () => {
  it('exchanges the code server to server and redirects to the dashboard with a one-time login code', async () => {
    const start = await startSignIn(mq);
    const response = await callback(mq, { code: github.authorize(alice), state: start.state }, start.cookie);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(DASHBOARD_URL);
    expect(location.search).toBe('');
    const code = loginCodeOf(response);
    expect(code).toMatch(/^lc_[A-Za-z0-9_-]{43}$/);
    secrets.push(code);
    expect(github.redirectUris.at(-1)).toBe(CALLBACK_URL);
    // The state cookie is spent.
    const cleared = ([] as string[]).concat(response.headers['set-cookie'] ?? []).join('\n');
    expect(cleared).toMatch(/miniqueue-oauth-state=;/);
  });

  it('refuses a missing state cookie (login CSRF: the browser never started this sign-in)', async () => {
    const start = await startSignIn(mq);
    const response = await callback(mq, { code: github.authorize(alice), state: start.state });
    expect(response.status).toBe(400);
  });

  it('refuses a state that does not match the cookie', async () => {
    const mine = await startSignIn(mq);
    const theirs = await startSignIn(mq);
    const response = await callback(mq, { code: github.authorize(alice), state: theirs.state }, mine.cookie);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/state/i);
  });

  it('refuses a tampered state cookie', async () => {
    const start = await startSignIn(mq);
    const tampered = start.cookie.slice(0, -4) + 'AAAA';
    const response = await callback(mq, { code: github.authorize(alice), state: start.state }, tampered);
    expect(response.status).toBe(400);
  });

  it('refuses a callback without code or without state', async () => {
    const start = await startSignIn(mq);
    expect((await callback(mq, { state: start.state }, start.cookie)).status).toBe(400);
    const noState = await callback(mq, { code: github.authorize(alice) }, start.cookie);
    expect(noState.status).toBe(400);
    expect(noState.body.errors).toEqual([{ field: 'state', message: 'is required' }]);
  });

  it('answers 401 when GitHub refuses the code or the person declined', async () => {
    const start = await startSignIn(mq);
    expect((await callback(mq, { code: 'not-a-code', state: start.state }, start.cookie)).status).toBe(401);
    const declined = await startSignIn(mq);
    expect((await callback(mq, { error: 'access_denied', state: declined.state }, declined.cookie)).status).toBe(401);
  });
});

describe('roles', () => {
  it('gives logins in MINIQUEUE_ADMINS admin (case-insensitively) and anyone else view', async () => {
    const asAlice = await mq.post('/api/v1/auth/exchange', { code: await signIn(mq, github, alice) });
    expect(asAlice.body).toMatchObject({ name: 'Alice', scopes: ['admin'] });
    const asBob = await mq.post('/api/v1/auth/exchange', { code: await signIn(mq, github, bob) });
    expect(asBob.body).toMatchObject({ name: 'bob', scopes: ['view'] });
    secrets.push(asAlice.body.token, asBob.body.token);
    expect((await mq.get('/api/v1/clients', asAlice.body.token)).status).toBe(200);
    expect((await mq.get('/api/v1/clients', asBob.body.token)).status).toBe(403);
    expect((await mq.get('/api/v1/dashboard/overview', asBob.body.token)).status).toBe(200);
  });

  it('with MINIQUEUE_PUBLIC_VIEWER=false, refuses anyone but admins at sign-in', async () => {
    const closed = await startTestBroker({
      databaseUrl: mq.databaseUrl,
      adminKey: mq.adminKey,
      env: githubEnv(github, { MINIQUEUE_ADMINS: 'alice', MINIQUEUE_PUBLIC_VIEWER: 'false' }),
    });
    try {
      const start = await startSignIn(closed);
      const refused = await callback(closed, { code: github.authorize(bob), state: start.state }, start.cookie);
      expect(refused.status).toBe(403);
      const again = await startSignIn(closed);
      const allowed = await callback(closed, { code: github.authorize(alice), state: again.state }, again.cookie);
      expect(loginCodeOf(allowed)).toMatch(/^lc_/);
    } finally {
      await closed.stop();
    }
  });
});

describe('without GitHub configuration', () => {
  it('answers both sign-in routes with a clear 503', async () => {
    const bare = await startTestBroker({ databaseUrl: mq.databaseUrl, adminKey: mq.adminKey });
    try {
      for (const path of ['/api/v1/auth/github/login', '/api/v1/auth/github/callback?code=a&state=b']) {
        const response = await bare.get(path);
        expect(response.status).toBe(503);
        expect(response.body.message).toMatch(/GITHUB_CLIENT_ID/);
      }
    } finally {
      await bare.stop();
    }
  });

  it('answers 503 when GitHub cannot be reached', async () => {
    const unreachable = await startTestBroker({
      databaseUrl: mq.databaseUrl,
      adminKey: mq.adminKey,
      env: { ...githubEnv(github), GITHUB_URL: 'http://127.0.0.1:9' },
    });
    try {
      const start = await startSignIn(unreachable);
      expect((await callback(unreachable, { code: 'x', state: start.state }, start.cookie)).status).toBe(503);
    } finally {
      await unreachable.stop();
    }
  });
});

describe('with an https callback', () => {
  it('marks the state cookie Secure', async () => {
    const tls = await startTestBroker({
      databaseUrl: mq.databaseUrl,
      adminKey: mq.adminKey,
      env: githubEnv(github, { GITHUB_CALLBACK_URL: 'https://mq.example.com/api/v1/auth/github/callback' }),
    });
    try {
      expect((await startSignIn(tls)).setCookie).toMatch(/; Secure/);
    } finally {
      await tls.stop();
    }
  });
});

describe('logs', () => {
  it('never hold a key, session token, login code, ticket or GitHub token', async () => {
    expectNoSecretsIn(logs, [mq.adminKey, ...secrets, ...github.tokens]);
    // The check itself would notice a leak.
    expect(() => expectNoSecretsIn([...logs, `request with ${secrets[0]}`])).toThrow(/secret/);
  });
});
