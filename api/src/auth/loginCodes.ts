import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { loginCodeInsert, loginCodeTake } from '../db/queries/loginCode.js';
import type { Config } from '../config.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { scopesForLogin } from './roles.js';
import { hashSecret, newSecret } from './secrets.js';
import { createSession, type Person } from './sessions.js';

export const LOGIN_CODE_PREFIX = 'lc_';
export const LOGIN_CODE_TTL_SECONDS = 60;

/** The code the sign-in redirect carries instead of a session token (URLs end up in logs). */
export async function issueLoginCode(db: Queryable, person: Person): Promise<string> {
  const { secret, hash } = newSecret(LOGIN_CODE_PREFIX);
  await loginCodeInsert(db, { codeHash: hash, githubId: person.githubId, login: person.login, ttlSeconds: LOGIN_CODE_TTL_SECONDS });
  return secret;
}

export interface ExchangedSession {
  token: string;
  expires_at: string;
  name: string;
  scopes: string[];
}

/**
 * Uses a login code up and opens a session for its person, in one transaction: a session is never
 * made without the code being spent, and a failed insert gives the code back.
 */
export async function exchangeLoginCode(pool: Pool, config: Pick<Config, 'admins' | 'publicViewer'>, code: string): Promise<ExchangedSession> {
  return withTransaction(pool, async (tx) => {
    const person = await loginCodeTake(tx, hashSecret(code));
    if (!person) throw new UnauthorizedError('login_code_invalid', 'Unknown, expired or already used login code; sign in again');
    // The role may have been taken away in the seconds since the callback.
    const scopes = scopesForLogin(config, person.login);
    if (!scopes) throw new ForbiddenError('admin_required', 'Only administrators may sign in to this MiniQueue');
    const session = await createSession(tx, { githubId: person.github_id, login: person.login });
    return { token: session.token, expires_at: session.expiresAt.toISOString(), name: person.login, scopes };
  });
}
