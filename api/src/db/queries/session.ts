import type { Queryable } from '../pool.js';

export interface SessionRow {
  id: string;
  github_id: string;
  login: string;
  expires_at: Date;
}

const COLUMNS = 'id, github_id::text AS github_id, login, expires_at';

export async function sessionInsert(
  db: Queryable,
  session: { id: string; tokenHash: Buffer; githubId: string; login: string; ttlSeconds: number },
): Promise<SessionRow> {
  const { rows } = await db.query<SessionRow>(
    `INSERT INTO dashboard_session (id, token_hash, github_id, login, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING ${COLUMNS}`,
    [session.id, session.tokenHash, session.githubId, session.login, session.ttlSeconds],
  );
  return rows[0];
}

/** A session that has not ended and has not expired (the sweeper may not have run yet). */
export async function sessionFindLiveByTokenHash(db: Queryable, tokenHash: Buffer): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(`SELECT ${COLUMNS} FROM dashboard_session WHERE token_hash = $1 AND expires_at > now()`, [tokenHash]);
  return rows[0] ?? null;
}

/** Ends a session; its trigger tells every instance. */
export async function sessionDelete(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM dashboard_session WHERE id = $1', [id]);
  return rowCount === 1;
}

export async function sessionDeleteExpired(db: Queryable, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM dashboard_session WHERE id IN (
       SELECT id FROM dashboard_session WHERE expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
    [limit],
  );
  return rowCount ?? 0;
}
