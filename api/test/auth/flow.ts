import { expect } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import type { TestResponse } from '../helpers/http.js';
import type { FakeGithub } from './fakeGithub.js';

export const CALLBACK_URL = 'http://localhost:8080/api/v1/auth/github/callback';
export const DASHBOARD_URL = 'http://localhost:5173/';

export function githubEnv(github: FakeGithub, extra: Record<string, string> = {}): Record<string, string> {
  return {
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    GITHUB_URL: github.url,
    GITHUB_CALLBACK_URL: CALLBACK_URL,
    MINIQUEUE_DASHBOARD_URL: DASHBOARD_URL,
    ...extra,
  };
}

export interface SignInStart {
  response: TestResponse;
  /** Where the browser is sent: GitHub's authorize page. */
  location: URL;
  state: string;
  /** The state cookie, as the browser would send it back. */
  cookie: string;
  setCookie: string;
}

/** The browser opens /auth/github/login. */
export async function startSignIn(mq: TestBroker): Promise<SignInStart> {
  const response = await mq.request('GET', '/api/v1/auth/github/login');
  expect(response.status).toBe(302);
  const location = new URL(String(response.headers.location));
  const setCookie = ([] as string[]).concat(response.headers['set-cookie'] ?? [])[0] ?? '';
  return { response, location, state: location.searchParams.get('state') ?? '', cookie: setCookie.split(';')[0], setCookie };
}

/** GitHub sends the browser back to the callback. */
export function callback(mq: TestBroker, query: Record<string, string>, cookie?: string): Promise<TestResponse> {
  const search = new URLSearchParams(query).toString();
  return mq.request('GET', `/api/v1/auth/github/callback?${search}`, { headers: cookie ? { cookie } : {} });
}

/** The login code the dashboard finds in its URL fragment after sign-in. */
export function loginCodeOf(response: TestResponse): string {
  expect(response.status).toBe(302);
  const location = new URL(String(response.headers.location));
  return new URLSearchParams(location.hash.slice(1)).get('login_code') ?? '';
}

/** The whole round trip, as a browser and GitHub would do it; returns the login code. */
export async function signIn(mq: TestBroker, github: FakeGithub, user: { id: number; login: string }): Promise<string> {
  const start = await startSignIn(mq);
  const code = github.authorize(user);
  return loginCodeOf(await callback(mq, { code, state: start.state }, start.cookie));
}

/** Signs in and exchanges the code; returns the session token. */
export async function sessionToken(mq: TestBroker, github: FakeGithub, user: { id: number; login: string }): Promise<string> {
  const exchanged = await mq.post('/api/v1/auth/exchange', { code: await signIn(mq, github, user) });
  expect(exchanged.status).toBe(200);
  return exchanged.body.token;
}
