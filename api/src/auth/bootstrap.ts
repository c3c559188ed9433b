import { v7 as uuidv7 } from 'uuid';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { advisoryLockTakeForTransaction } from '../db/queries/advisoryLock.js';
import { clientAnyActiveAdmin, clientFindByKeyHash, clientReleaseRevokedKey, clientUpsertBootstrap } from '../db/queries/client.js';
import { apiKeyFrom, newApiKey, type NewApiKey } from './apiKeys.js';

export const BOOTSTRAP_CLIENT = 'bootstrap-admin';

/**
 * Makes sure an admin exists, whatever the clients table holds, so that an instance always starts.
 * With a configured key, `bootstrap-admin` holds exactly that key, with admin. Without one, a start
 * that finds no active admin makes `bootstrap-admin` one with a fresh key (creating it, or taking
 * over a `bootstrap-admin` that lost its admin scope) and returns the key (the caller shows it
 * once); a start that finds an admin returns null. The `admin-bootstrap` lock is the one every
 * change of who is admin takes (auth/clients.ts), so none of them interleave.
 */
export async function ensureAdmin(pool: Pool, configuredKey?: string): Promise<string | null> {
  return withTransaction(pool, async (tx) => {
    // Instances starting together take turns, so only one of them creates the admin.
    await advisoryLockTakeForTransaction(tx, 'admin-bootstrap');
    if (configuredKey) {
      await holdKey(tx, apiKeyFrom(configuredKey));
      return null;
    }
    if (await clientAnyActiveAdmin(tx)) return null;
    const key = newApiKey();
    await holdKey(tx, key);
    return key.key;
  });
}

/** `bootstrap-admin` holds this key, with admin; a revoked client that held it before lets it go. */
async function holdKey(tx: Queryable, key: Pick<NewApiKey, 'hash' | 'prefix'>): Promise<void> {
  const holder = await clientFindByKeyHash(tx, key.hash);
  if (holder?.revoked) await clientReleaseRevokedKey(tx, holder.id);
  else if (holder && holder.name !== BOOTSTRAP_CLIENT) {
    // Only an operator can bring this about (a client's key copied into the setting); no key in the message.
    throw new Error(`MINIQUEUE_BOOTSTRAP_ADMIN_KEY is the key of the client ${holder.name}: give ${BOOTSTRAP_CLIENT} a key of its own`);
  }
  await clientUpsertBootstrap(tx, { id: uuidv7(), name: BOOTSTRAP_CLIENT, keyHash: key.hash, keyPrefix: key.prefix });
}
