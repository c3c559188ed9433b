import { v7 as uuidv7 } from 'uuid';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Queryable } from '../db/pool.js';
import { clientInsert, clientListActive, clientRevoke, clientRotateKey, clientUpdateScopes, type ClientRow } from '../db/queries/client.js';
import { newApiKey } from './apiKeys.js';
import { normalizeScope } from './scopes.js';

const view = (row: ClientRow) => ({
  name: row.name,
  scopes: row.scopes,
  key_prefix: row.key_prefix,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at ? row.last_used_at.toISOString() : null,
});

const withKey = (row: ClientRow, apiKey: string) => ({
  name: row.name,
  scopes: row.scopes,
  api_key: apiKey,
  key_prefix: row.key_prefix,
  created_at: row.created_at.toISOString(),
});

const notFound = (name: string) => new NotFoundError('client_not_found', `No client found with the name ${name}`);

function normalizeScopes(scopes: string[]): string[] {
  const errors = scopes.flatMap((scope, index) =>
    normalizeScope(scope) ? [] : [{ field: `scopes[${index}]`, message: `unknown scope ${JSON.stringify(scope)}` }],
  );
  if (errors.length > 0) throw new ValidationError('Unknown scope', errors, 'unknown_scope');
  return [...new Set(scopes.map((scope) => normalizeScope(scope) as string))];
}

export async function createClient(db: Queryable, name: string, scopes: string[]) {
  const key = newApiKey();
  try {
    const row = await clientInsert(db, {
      id: uuidv7(),
      name,
      scopes: normalizeScopes(scopes),
      keyHash: key.hash,
      keyPrefix: key.prefix,
    });
    return withKey(row, key.key);
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('client_exists', `A client named ${name} already exists`);
    throw error;
  }
}

export async function listClients(db: Queryable) {
  return (await clientListActive(db)).map(view);
}

export async function rotateClient(db: Queryable, name: string) {
  const key = newApiKey();
  const row = await clientRotateKey(db, name, { keyHash: key.hash, keyPrefix: key.prefix });
  if (!row) throw notFound(name);
  return withKey(row, key.key);
}

/** Replaces the scopes of an active client (validated as on registration); the key stays. */
export async function updateClient(db: Queryable, name: string, scopes: string[]) {
  const row = await clientUpdateScopes(db, name, normalizeScopes(scopes));
  if (!row) throw notFound(name);
  return view(row);
}

export async function revokeClient(db: Queryable, name: string): Promise<void> {
  if (!(await clientRevoke(db, name))) throw notFound(name);
}
