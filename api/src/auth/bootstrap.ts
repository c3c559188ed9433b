import { v7 as uuidv7 } from 'uuid';
import { withTransaction, type Pool } from '../db/pool.js';
import { advisoryLockTakeForTransaction } from '../db/queries/advisoryLock.js';
import { clientAnyActiveAdmin, clientInsert, clientUpsertBootstrap } from '../db/queries/client.js';
import { apiKeyFrom, newApiKey } from './apiKeys.js';

export const BOOTSTRAP_CLIENT = 'bootstrap-admin';

/**
 * Makes sure an admin exists. With a configured key, `bootstrap-admin` holds exactly that key.
 * Without one, the first start on an empty database creates `bootstrap-admin` with a fresh key
 * and returns it (the caller shows it once); later starts return null.
 */
export async function ensureAdmin(pool: Pool, configuredKey?: string): Promise<string | null> {
  return withTransaction(pool, async (tx) => {
    // Instances starting together take turns, so only one of them creates the admin.
    await advisoryLockTakeForTransaction(tx, 'admin-bootstrap');
    if (configuredKey) {
      const key = apiKeyFrom(configuredKey);
      await clientUpsertBootstrap(tx, { id: uuidv7(), name: BOOTSTRAP_CLIENT, keyHash: key.hash, keyPrefix: key.prefix });
      return null;
    }
    if (await clientAnyActiveAdmin(tx)) return null;
    const key = newApiKey();
    await clientInsert(tx, {
      id: uuidv7(),
      name: BOOTSTRAP_CLIENT,
      scopes: ['admin'],
      keyHash: key.hash,
      keyPrefix: key.prefix,
    });
    return key.key;
  });
}
