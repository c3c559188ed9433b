import type { Queryable } from '../pool.js';

export interface LoginCodeRow {
  github_id: string;
  login: string;
}

export async function loginCodeInsert(db: Queryable, code: { codeHash: Buffer; githubId: string; login: string; ttlSeconds: number }): Promise<void> {
  await db.query(
    `INSERT INTO login_code (code_hash, github_id, login, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4))`,
    [code.codeHash, code.githubId, code.login, code.ttlSeconds],
  );
}

/**
 * Uses a code up: the row is deleted as it is read, so of two racing redemptions (on any
 * instances) exactly one gets it. An expired code is left for the sweeper and yields nothing.
 */
export async function loginCodeTake(db: Queryable, codeHash: Buffer): Promise<LoginCodeRow | null> {
  const { rows } = await db.query<LoginCodeRow>(
    `DELETE FROM login_code WHERE code_hash = $1 AND expires_at > now()
     RETURNING github_id::text AS github_id, login`,
    [codeHash],
  );
  return rows[0] ?? null;
}

export async function loginCodeDeleteExpired(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM login_code WHERE expires_at <= now()');
  return rowCount ?? 0;
}
