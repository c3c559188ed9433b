import { createHash } from 'node:crypto';
import type { Queryable } from '../pool.js';

/** Every advisory lock the broker takes. */
export type AdvisoryLockName = 'migrations' | 'admin-bootstrap' | 'dispatcher' | 'dead-letter-topics';

/**
 * A lock's id, derived from its name (the first 48 bits of the SHA-256 of `miniqueue:<name>`, so it
 * stays a safe JavaScript integer): no id is chosen by hand, two locks cannot share one through a
 * typing slip, and an application sharing the database is unlikely to use the same number.
 */
export function advisoryLockId(name: AdvisoryLockName): number {
  return createHash('sha256').update(`miniqueue:${name}`).digest().readUIntBE(0, 6);
}

/** Waits for a session-level lock (held until released or the session ends). */
export async function advisoryLockTake(db: Queryable, name: AdvisoryLockName): Promise<void> {
  await db.query('SELECT pg_advisory_lock($1)', [advisoryLockId(name)]);
}

/** Takes a session-level lock if nobody holds it; true when taken. */
export async function advisoryLockTryTake(db: Queryable, name: AdvisoryLockName): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [advisoryLockId(name)]);
  return rows[0].ok;
}

export async function advisoryLockRelease(db: Queryable, name: AdvisoryLockName): Promise<void> {
  await db.query('SELECT pg_advisory_unlock($1)', [advisoryLockId(name)]);
}

/** Waits for a lock that ends with the current transaction. */
export async function advisoryLockTakeForTransaction(db: Queryable, name: AdvisoryLockName): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [advisoryLockId(name)]);
}
