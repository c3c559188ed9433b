import type { Queryable } from '../pool.js';
import { LEAVE_LEASE, LEFT_LEASE, LEFT_LEASE_TRACED, untagLeftLease, type Advanced, type ReturnedRow, type Tagged } from './messageSettle.js';

/**
 * Returns up to `limit` messages whose lease ran out to PENDING (retry_count + 1), or to the
 * dead-letter table when the retries are used up. SKIP LOCKED: two sweepers never take the same
 * row, and a row being acked right now is left to the ack. The lease index holds only UNACKED
 * rows, so a pass that finds nothing reads one index page.
 */
export async function messageExpireLeases(db: Queryable, limit: number, traced = false): Promise<{ own: ReturnedRow[]; advanced: Advanced }> {
  const { rows } = await db.query<Tagged<ReturnedRow>>({ ...(traced ? EXPIRE_TRACED : EXPIRE), values: [limit] });
  return untagLeftLease(rows);
}

const EXPIRE_TEXT = (traced: boolean) => `WITH t AS (
       SELECT m.id, 0 AS ref, m.retry_count >= q.max_retries AS dies, 'EXPIRED' AS kind, NULL::text AS reason
         FROM message m JOIN queue q ON q.name = m.queue_name
        WHERE m.status = 'UNACKED' AND m.lease_expires_at < now()
        ORDER BY m.lease_expires_at
        LIMIT $1
          FOR UPDATE OF m SKIP LOCKED),
     ${LEAVE_LEASE('now()', 'expired_count = coalesce(m.expired_count, 0) + 1', traced)}
     ${traced ? LEFT_LEASE_TRACED : LEFT_LEASE}`;
/** With tracing on, each row also says what trace its message belongs to (`trace`). */
const EXPIRE = { name: 'message_expire_leases', text: EXPIRE_TEXT(false) };
const EXPIRE_TRACED = { name: 'message_expire_leases_traced', text: EXPIRE_TEXT(true) };
