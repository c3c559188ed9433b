import Joi from 'joi';
import type { Lifecycle, ReqRef, Request, ResponseToolkit, RouteOptions, Server } from '@hapi/hapi';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../../errors.js';
import { GITHUB_STRATEGY, STATE_COOKIE, githubNotConfigured, signInFailure } from '../../auth/github.js';
import { exchangeLoginCode, issueLoginCode } from '../../auth/loginCodes.js';
import { scopesForLogin } from '../../auth/roles.js';
import { endSession } from '../../auth/sessions.js';
import { issueWsTicket } from '../../auth/tickets.js';
import type { CredentialArtifacts } from '../../auth/scheme.js';
import { access, principalOf } from '../access.js';
import type { AppContext } from '../context.js';

/** Both ends of the GitHub round trip are public; bell runs in `try` mode so its failures reach us. */
const githubAccess = <Refs extends ReqRef>(configured: boolean, onPreAuth: Lifecycle.Method): RouteOptions<Refs> =>
  configured
    ? {
        auth: { strategy: GITHUB_STRATEGY, mode: 'try' },
        plugins: { miniqueue: { scope: 'none' } },
        ext: { onPreAuth: { method: onPreAuth } },
      }
    : access('none');

/**
 * bell treats a request carrying `code` as a callback, and keeps the query in the state cookie.
 * The start of sign-in takes no parameters, so it always starts afresh whatever the URL carries.
 */
const checkLoginStart: Lifecycle.Method = (request, h) => {
  (request as { query: object }).query = {};
  return h.continue;
};

interface GithubProfile {
  id: number;
  username: string;
}

/** bell's credentials on the callback: GitHub's profile (and its access token, which is not kept). */
type GithubCallback = { AuthCredentialsExtra: { profile: GithubProfile } };

/**
 * Refuses what bell would otherwise turn into a new sign-in (no code) or an HTML refresh page (no
 * state cookie), so the callback answers in the contract's terms.
 */
const checkCallback: Lifecycle.Method = (request, h) => {
  const query = request.query as Record<string, unknown>;
  if (query.error !== undefined) throw new UnauthorizedError('signin_refused', 'GitHub sign-in was refused or cancelled');
  const missing = ['code', 'state'].filter((name) => typeof query[name] !== 'string' || query[name] === '');
  if (missing.length > 0) {
    throw new ValidationError(
      `Missing ${missing.join(' and ')}`,
      missing.map((field) => ({ field, message: 'is required' })),
    );
  }
  if (!request.state[STATE_COOKIE]) {
    throw new ValidationError(
      'The sign-in state cookie is missing or expired; start the sign-in again',
      [{ field: 'state', message: 'no state cookie' }],
      'signin_state_invalid',
    );
  }
  return h.continue;
};

/** The dashboard gets the code in the fragment: never sent to a server, so never in an access log. */
export function dashboardLocation(dashboardUrl: string | undefined, code: string): string {
  const fragment = `login_code=${encodeURIComponent(code)}`;
  if (!dashboardUrl) return `/#${fragment}`;
  const url = new URL(dashboardUrl);
  url.hash = fragment;
  return url.toString();
}

export function authRoutes(server: Server, ctx: AppContext): void {
  const configured = ctx.config.github !== undefined;

  const callback = async (request: Request<GithubCallback>, h: ResponseToolkit<GithubCallback>) => {
    if (!configured) throw githubNotConfigured();
    if (!request.auth.isAuthenticated) throw signInFailure(request.auth.error);
    // GitHub's access token (in the credentials too) is not kept: only who the person is.
    const { id, username } = request.auth.credentials.profile;
    if (!scopesForLogin(ctx.config, username)) throw new ForbiddenError('admin_required', 'Only administrators may sign in to this MiniQueue');
    const code = await issueLoginCode(ctx.pool, { githubId: String(id), login: username });
    return h.redirect(dashboardLocation(ctx.config.dashboardUrl, code));
  };

  server.route({
    method: 'GET',
    path: '/auth/github/login',
    options: githubAccess(configured, checkLoginStart),
    // bell answers the start of sign-in itself (redirect to GitHub); reaching here means it failed.
    handler: (request) => {
      if (!configured) throw githubNotConfigured();
      throw signInFailure(request.auth.error);
    },
  });
  server.route<GithubCallback>({
    method: 'GET',
    path: '/auth/github/callback',
    options: githubAccess(configured, checkCallback),
    handler: callback,
  });
  server.route<{ Payload: { code: string } }>({
    method: 'POST',
    path: '/auth/exchange',
    options: {
      ...access('none'),
      validate: { payload: Joi.object({ code: Joi.string().min(1).max(200).required() }).required() },
    },
    handler: (request) => exchangeLoginCode(ctx.pool, ctx.config, request.payload.code),
  });
  server.route({
    method: 'GET',
    path: '/auth/me',
    options: access('any'),
    handler: (request) => {
      const principal = principalOf(request);
      return { name: principal.name, kind: principal.kind, scopes: principal.scopes };
    },
  });
  server.route({
    method: 'POST',
    path: '/auth/logout',
    options: access('session'),
    handler: async (request, h) => {
      const principal = principalOf(request);
      if (principal.kind !== 'session') throw new ForbiddenError('session_required', 'Only a dashboard session can log out; API keys are revoked instead');
      await endSession(ctx.pool, principal.credentialId);
      ctx.bus.changedHere({ kind: 'session', id: principal.credentialId });
      return h.response().code(204);
    },
  });
  server.route<{ AuthArtifactsExtra: CredentialArtifacts }>({
    method: 'POST',
    path: '/auth/ws-ticket',
    options: access('any'),
    handler: (request) => issueWsTicket(ctx.pool, principalOf(request), request.auth.artifacts.credentialHash),
  });
}
