import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GithubUser {
  id: number;
  login: string;
}

export interface FakeGithub {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who is signed in to "GitHub" in the browser, i.e. who the consent page authorizes. */
  signedInAs: GithubUser;
  close(): Promise<void>;
}

const html = (body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Authorize application</title></head><body>${body}</body></html>`;
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GitHub's three OAuth endpoints on 127.0.0.1, in the layout bell uses for a GitHub base URL: the
 * consent page the browser is sent to, the token exchange and the user API the broker calls.
 * Codes and tokens work once / for their user only, as on GitHub.
 */
export async function startFakeGithub(signedInAs: GithubUser): Promise<FakeGithub> {
  const clientId = 'dashboard-test-client';
  const clientSecret = randomBytes(20).toString('hex');
  const codes = new Map<string, GithubUser>();
  const tokens = new Map<string, GithubUser>();
  const fake: FakeGithub = { url: '', clientId, clientSecret, signedInAs, close: async () => undefined };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
        if (url.searchParams.get('client_id') !== clientId) return json(400, { message: 'unknown client_id' });
        const code = randomBytes(10).toString('hex');
        codes.set(code, fake.signedInAs);
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(
          html(`<h1>Authorize MiniQueue</h1><p>Signed in as ${escape(fake.signedInAs.login)}</p><a href="${escape(back.toString())}">Authorize</a>`),
        );
      }
      if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) return json(200, { error: 'incorrect_client_credentials' });
        const user = codes.get(form.get('code') ?? '');
        if (!user) return json(200, { error: 'bad_verification_code' });
        codes.delete(form.get('code') ?? '');
        const token = `gho_${randomBytes(18).toString('hex')}`;
        tokens.set(token, user);
        return json(200, { access_token: token, token_type: 'bearer', scope: '' });
      }
      if (req.method === 'GET' && url.pathname === '/api/v3/user') {
        const user = tokens.get(String(req.headers.authorization ?? '').replace(/^(Bearer|token) /i, ''));
        if (!user) return json(401, { message: 'Bad credentials' });
        return json(200, { id: user.id, login: user.login, name: null, email: null });
      }
      json(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return fake;
}

/** A port free right now, for a broker whose callback URL must be configured before it listens. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
