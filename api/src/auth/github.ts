import { hkdfSync } from 'node:crypto';
import Boom from '@hapi/boom';
import * as Bell from '@hapi/bell';
import type { Server } from '@hapi/hapi';
import type { Config } from '../config.js';
import { BrokerError, UnauthorizedError, UnavailableError, ValidationError } from '../errors.js';

export const GITHUB_STRATEGY = 'github';
/** Holds bell's encrypted `state` between the redirect to GitHub and the callback. */
export const STATE_COOKIE = 'miniqueue-oauth-state';
const STATE_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = '/api/v1/auth/github/callback';

type GithubConfig = NonNullable<Config['github']>;

interface ProviderProfile {
  id?: unknown;
  username?: unknown;
}
type ProfileFn = (this: unknown, credentials: { profile?: ProviderProfile }, params: Record<string, unknown>, get: unknown) => Promise<void>;
type ProviderFactory = (options?: { uri?: string }) => Record<string, unknown> & { profile: ProfileFn };

/** The redirect_uri GitHub sends the browser back to: from configuration, never from the request's Host. */
export function callbackUrl(config: Pick<Config, 'github' | 'port'>): string {
  return config.github?.callbackUrl ?? `http://localhost:${config.port}${CALLBACK_PATH}`;
}

/**
 * Every instance must decrypt a state cookie another instance set (the callback may land anywhere),
 * so the cookie key is derived from a secret they all share rather than made at start-up.
 */
function stateCookiePassword(github: GithubConfig): string {
  return Buffer.from(hkdfSync('sha256', github.clientSecret, 'miniqueue', 'oauth-state-cookie', 32)).toString('hex');
}

/**
 * bell's GitHub provider, asking for no OAuth scope (the public profile is all we read), and
 * turning GitHub's refusal of a code (a 200 carrying `error`) into a clear 401.
 */
function githubProvider(github: GithubConfig) {
  const providers = (Bell as unknown as { providers: Record<string, ProviderFactory> }).providers;
  const base = providers.github(github.url ? { uri: github.url } : undefined);
  const profile: ProfileFn = async function (this: unknown, credentials, params, get) {
    if (typeof params.access_token !== 'string' || params.access_token === '') {
      throw new UnauthorizedError('signin_refused', 'GitHub did not accept the sign-in code; start the sign-in again');
    }
    await base.profile.call(this, credentials, params, get);
    const { id, username } = credentials.profile ?? {};
    if (!Number.isSafeInteger(id) || typeof username !== 'string' || username === '') {
      throw new Error('GitHub returned a user without id or login');
    }
  };
  return { ...base, name: GITHUB_STRATEGY, scope: undefined, profile };
}

/** Registers bell's `github` strategy when sign-in is configured; returns whether it did. */
export async function registerGithubSignIn(server: Server, config: Config): Promise<boolean> {
  const github = config.github;
  if (!github) return false;
  const redirectUri = callbackUrl(config);
  await server.register(Bell.plugin);
  server.auth.strategy(GITHUB_STRATEGY, 'bell', {
    provider: githubProvider(github),
    clientId: github.clientId,
    clientSecret: github.clientSecret,
    password: stateCookiePassword(github),
    cookie: STATE_COOKIE,
    ttl: STATE_TTL_MS,
    isHttpOnly: true,
    isSecure: redirectUri.startsWith('https:'),
    // GitHub sends the browser back with a cross-site navigation, on which Strict cookies stay home.
    isSameSite: 'Lax',
    location: () => redirectUri,
  } as unknown as Bell.BellOptions);
  return true;
}

const notConfigured = () =>
  new UnavailableError('GitHub sign-in is not configured on this server (set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET)', undefined, 'github_not_configured');
export { notConfigured as githubNotConfigured };

/**
 * bell reports every failure as a 500; callers deserve to know whether they should start again
 * (bad state), whether GitHub said no, or whether GitHub could not be reached.
 */
export function signInFailure(error: unknown): Error {
  if (error instanceof BrokerError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/state parameter/i.test(message)) {
    return new ValidationError(
      'Sign-in state does not match; start the sign-in again',
      [{ field: 'state', message: 'does not match the state this browser was given' }],
      'signin_state_invalid',
    );
  }
  if (/access token|user profile/i.test(message)) {
    // bell keeps the HTTP client's error: no connection or a 5xx is GitHub's trouble, a 4xx is a no.
    const cause = Boom.isBoom(error) ? error.data : undefined;
    const unreachable = cause instanceof Error && (!Boom.isBoom(cause) || cause.output.statusCode >= 500);
    if (unreachable) return new UnavailableError('GitHub could not be reached; try again shortly', undefined, 'github_unreachable');
    return new UnauthorizedError('signin_refused', 'GitHub did not accept the sign-in code; start the sign-in again');
  }
  return error instanceof Error ? error : new Error('GitHub sign-in failed');
}
