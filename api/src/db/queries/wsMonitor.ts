import type { Queryable } from '../pool.js';
import { OWNER_GONE, SESSION_OWNER } from './sessionOwner.js';

/** This instance holds monitor sockets: the others send it their coalesced monitor events (realtime/monitorRelay.ts). */
export async function wsMonitorUpsert(db: Queryable, instance: string): Promise<void> {
  await db.query(
    `INSERT INTO ws_monitor (instance_id, owner_pid, owner_started) VALUES ($1, ${SESSION_OWNER})
     ON CONFLICT (instance_id) DO UPDATE SET owner_pid = EXCLUDED.owner_pid, owner_started = EXCLUDED.owner_started`,
    [instance],
  );
}

/** Does an instance other than this one hold monitor sockets? */
export async function wsMonitorExistsElsewhere(db: Queryable, instance: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM ws_monitor WHERE instance_id <> $1) AS found', [instance]);
  return rows[0].found;
}

export async function wsMonitorDelete(db: Queryable, instance: string): Promise<void> {
  await db.query('DELETE FROM ws_monitor WHERE instance_id = $1', [instance]);
}

/** Removes the monitor presence of instances whose coordination session no longer exists (they died). */
export async function wsMonitorDeleteOrphans(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM ws_monitor t WHERE ${OWNER_GONE}`);
}
