import type { Queryable } from '../pool.js';

/**
 * The smallest write that commits as a publish does, for the health check: a transactional
 * logical-decoding message. Its transaction gets an id and a commit record (a few bytes of WAL),
 * so its commit waits for the WAL flush and for synchronous standbys exactly as every write's
 * does; yet nothing is stored in any table, and no lock is taken that another instance's probe
 * would wait for. Any role may call it; a server in recovery refuses it (it takes no writes).
 * Its commit is bounded like any write's (db/commitBound.ts).
 */
export async function commitProbe(db: Queryable): Promise<void> {
  await db.query("SELECT pg_logical_emit_message(true, $1, '')", ['miniqueue-health']);
}
