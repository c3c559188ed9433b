import type { Queryable } from '../pool.js';

export interface ClientRow {
  id: string;
  name: string;
  scopes: string[];
  key_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
}

const COLUMNS = 'id, name, scopes, key_prefix, created_at, last_used_at';

/** Registers a client; a duplicate active name raises 23505. */
export async function clientInsert(
  db: Queryable,
  client: { id: string; name: string; scopes: string[]; keyHash: Buffer; keyPrefix: string },
): Promise<ClientRow> {
  const { rows } = await db.query<ClientRow>(
    `INSERT INTO client (id, name, scopes, key_hash, key_prefix) VALUES ($1, $2, $3, $4, $5)
     RETURNING ${COLUMNS}`,
    [client.id, client.name, client.scopes, client.keyHash, client.keyPrefix],
  );
  return rows[0];
}

export async function clientListActive(db: Queryable): Promise<ClientRow[]> {
  const { rows } = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM client WHERE revoked_at IS NULL ORDER BY name`);
  return rows;
}

export async function clientFindActiveByKeyHash(db: Queryable, keyHash: Buffer): Promise<ClientRow | null> {
  const { rows } = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM client WHERE key_hash = $1 AND revoked_at IS NULL`, [keyHash]);
  return rows[0] ?? null;
}

/** Replaces an active client's key; the old hash is gone, so the old key dies at once. */
export async function clientRotateKey(db: Queryable, name: string, key: { keyHash: Buffer; keyPrefix: string }): Promise<ClientRow | null> {
  const { rows } = await db.query<ClientRow>(
    `UPDATE client SET key_hash = $2, key_prefix = $3
      WHERE name = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
    [name, key.keyHash, key.keyPrefix],
  );
  return rows[0] ?? null;
}

/** Replaces an active client's scopes; its key stays. The trigger announces it as a scope change. */
export async function clientUpdateScopes(db: Queryable, name: string, scopes: string[]): Promise<ClientRow | null> {
  const { rows } = await db.query<ClientRow>(`UPDATE client SET scopes = $2 WHERE name = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`, [name, scopes]);
  return rows[0] ?? null;
}

/** An active client's scopes by id, as they are now; null when it is revoked or gone. */
export async function clientFindActiveScopes(db: Queryable, id: string): Promise<string[] | null> {
  const { rows } = await db.query<{ scopes: string[] }>('SELECT scopes FROM client WHERE id = $1 AND revoked_at IS NULL', [id]);
  return rows[0]?.scopes ?? null;
}

/** The revoked client's id, or null when no active client has the name. */
export async function clientRevoke(db: Queryable, name: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('UPDATE client SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING id', [name]);
  return rows[0]?.id ?? null;
}

export async function clientTouch(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE client SET last_used_at = now() WHERE id = $1', [id]);
}

export async function clientAnyActiveAdmin(db: Queryable): Promise<boolean> {
  const { rowCount } = await db.query(`SELECT 1 FROM client WHERE revoked_at IS NULL AND 'admin' = ANY(scopes) LIMIT 1`);
  return rowCount === 1;
}

/** The client, active or revoked, whose key has this hash (key hashes are unique over both). */
export async function clientFindByKeyHash(db: Queryable, keyHash: Buffer): Promise<{ id: string; name: string; revoked: boolean } | null> {
  const { rows } = await db.query<{ id: string; name: string; revoked: boolean }>(
    'SELECT id, name, revoked_at IS NOT NULL AS revoked FROM client WHERE key_hash = $1',
    [keyHash],
  );
  return rows[0] ?? null;
}

/**
 * Gives a revoked client a key hash nobody has the key to, so that its old key may be given
 * again (a revoked client's key authenticates nobody; the hash is unique over all clients).
 */
export async function clientReleaseRevokedKey(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE client SET key_hash = sha256(gen_random_uuid()::text::bytea) WHERE id = $1 AND revoked_at IS NOT NULL`, [id]);
}

/** Makes `bootstrap-admin` hold exactly this key (insert, or re-key the active one). */
export async function clientUpsertBootstrap(db: Queryable, client: { id: string; name: string; keyHash: Buffer; keyPrefix: string }): Promise<void> {
  await db.query(
    `INSERT INTO client (id, name, scopes, key_hash, key_prefix) VALUES ($1, $2, '{admin}', $3, $4)
     ON CONFLICT (name) WHERE revoked_at IS NULL
     DO UPDATE SET key_hash = EXCLUDED.key_hash, key_prefix = EXCLUDED.key_prefix, scopes = '{admin}'
       WHERE client.key_hash <> EXCLUDED.key_hash OR client.scopes <> '{admin}'`,
    [client.id, client.name, client.keyHash, client.keyPrefix],
  );
}
