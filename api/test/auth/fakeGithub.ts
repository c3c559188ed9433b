import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGithub {
  url: string;
  clientId: string;
  clientSecret: string;
  /** A code the fake will exchange for a token of this user, as GitHub does after consent. */
  authorize(user: { id: number; login: string }): string;
  /** Access tokens handed out, so tests can check they were not kept or logged. */
  tokens: string[];
  /** redirect_uri values sent to the token endpoint. */
  redirectUris: string[];
  close(): Promise<void>;
}

/**
 * GitHub's OAuth token endpoint and REST user endpoint, in GitHub Enterprise Server's layout (which
 * bell uses when given a base URL), on 127.0.0.1. A code works once; a bad code gets GitHub's
 * 200-with-error answer.
 */
export async function startFakeGithub(): Promise<FakeGithub> {
  const clientId = 'fake-client-id';
  const clientSecret = randomBytes(20).toString('hex');
  const codes = new Map<string, { id: number; login: string }>();
  const users = new Map<string, { id: number; login: string }>();
  const tokens: string[] = [];
  const redirectUris: string[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method === 'POST' && req.url === '/login/oauth/access_token') {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        redirectUris.push(form.get('redirect_uri') ?? '');
        if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
          return json(200, { error: 'incorrect_client_credentials' });
        }
        const user = codes.get(form.get('code') ?? '');
        if (!user) return json(200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
        codes.delete(form.get('code') ?? '');
        const token = `gho_${randomBytes(18).toString('hex')}`;
        users.set(token, user);
        tokens.push(token);
        return json(200, { access_token: token, token_type: 'bearer', scope: '' });
      }
      if (req.method === 'GET' && req.url === '/api/v3/user') {
        const user = users.get(String(req.headers.authorization ?? '').replace(/^Bearer /, ''));
        if (!user) return json(401, { message: 'Bad credentials' });
        return json(200, { id: user.id, login: user.login, name: null, email: null });
      }
      json(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    clientSecret,
    tokens,
    redirectUris,
    authorize(user) {
      const code = randomBytes(10).toString('hex');
      codes.set(code, user);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
