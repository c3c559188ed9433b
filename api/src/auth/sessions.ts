import { v7 as uuidv7 } from 'uuid';
import type { Config } from '../config.js';
import type { Queryable } from '../db/pool.js';
import { sessionDelete, sessionFindLiveByTokenHash, sessionInsert } from '../db/queries/session.js';
import type { Principal } from './principal.js';
import { scopesForLogin } from './roles.js';
import { newSecret } from './secrets.js';

export const SESSION_PREFIX = 'mqs_';
export const SESSION_TTL_SECONDS = 8 * 60 * 60;

/** A GitHub account, as read from GitHub at sign-in. */
export interface Person {
  githubId: string;
  login: string;
}

export interface NewSession {
  token: string;
  id: string;
  expiresAt: Date;
}

export async function createSession(db: Queryable, person: Person): Promise<NewSession> {
  const { secret, hash } = newSecret(SESSION_PREFIX);
  const row = await sessionInsert(db, {
    id: uuidv7(),
    tokenHash: hash,
    githubId: person.githubId,
    login: person.login,
    ttlSeconds: SESSION_TTL_SECONDS,
  });
  return { token: secret, id: row.id, expiresAt: row.expires_at };
}

/**
 * A session token (its hash) to a principal, or null when it is unknown, ended or expired, or when its person
 * may no longer use the dashboard. Not cached: one indexed lookup per request is what makes logout
 * take effect on every instance at the very next request.
 */
export async function resolveSession(db: Queryable, config: Pick<Config, 'admins' | 'publicViewer'>, tokenHash: Buffer): Promise<Principal | null> {
  const row = await sessionFindLiveByTokenHash(db, tokenHash);
  if (!row) return null;
  const scopes = scopesForLogin(config, row.login);
  if (!scopes) return null;
  return { name: row.login, kind: 'session', scopes, owner: `github:${row.github_id}`, credentialId: row.id };
}

export async function endSession(db: Queryable, id: string): Promise<void> {
  await sessionDelete(db, id);
}
