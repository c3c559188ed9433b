import { v7 as uuidv7 } from 'uuid';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { advisoryLockTakeForTransaction } from '../db/queries/advisoryLock.js';
import {
  clientAnyActiveAdmin,
  clientInsert,
  clientListActive,
  clientRevoke,
  clientRotateKey,
  clientUpdateScopes,
  type ClientRow,
} from '../db/queries/client.js';
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

/** The client's id comes back beside the answer, for what must hear of the change at once. */
export async function rotateClient(db: Queryable, name: string) {
  const key = newApiKey();
  const row = await clientRotateKey(db, name, { keyHash: key.hash, keyPrefix: key.prefix });
  if (!row) throw notFound(name);
  return { id: row.id, client: withKey(row, key.key) };
}

/**
 * A change that may take admin away from a client, refused (rolled back) when it would leave no
 * active admin client: then no key could manage the broker. Changes of who is admin take the lock
 * bootstrap takes, one at a time, so two admins narrowing each other at once cannot both pass.
 */
function keepingAnAdmin<T>(pool: Pool, name: string, change: (tx: Queryable) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (tx) => {
    await advisoryLockTakeForTransaction(tx, 'admin-bootstrap');
    const hadAdmin = await clientAnyActiveAdmin(tx);
    const result = await change(tx);
    if (hadAdmin && !(await clientAnyActiveAdmin(tx))) {
      throw new ConflictError('last_admin', `Client ${name} is the last admin; give another client the admin scope first`);
    }
    return result;
  });
}

/** Replaces the scopes of an active client (validated as on registration); the key stays. */
export async function updateClient(pool: Pool, name: string, scopes: string[]) {
  const normalized = normalizeScopes(scopes);
  return keepingAnAdmin(pool, name, async (tx) => {
    const row = await clientUpdateScopes(tx, name, normalized);
    if (!row) throw notFound(name);
    return { id: row.id, client: view(row) };
  });
}

/** Returns the revoked client's id. */
export async function revokeClient(pool: Pool, name: string): Promise<string> {
  return keepingAnAdmin(pool, name, async (tx) => {
    const id = await clientRevoke(tx, name);
    if (id === null) throw notFound(name);
    return id;
  });
}
