import type { Queryable } from '../pool.js';
import { LEAVE_LEASE, LEFT_LEASE, untagLeftLease, type Advanced, type ReturnedRow, type Tagged } from './messageSettle.js';

/**
 * Returns up to `limit` messages whose lease ran out to PENDING (retry_count + 1), or to the
 * dead-letter table when the retries are used up. SKIP LOCKED: two sweepers never take the same
 * row, and a row being acked right now is left to the ack. The lease index holds only UNACKED
 * rows, so a pass that finds nothing reads one index page.
 */
export async function messageExpireLeases(db: Queryable, limit: number): Promise<{ own: ReturnedRow[]; advanced: Advanced }> {
  const { rows } = await db.query<Tagged<ReturnedRow>>({
    name: 'message_expire_leases',
    text: `WITH t AS (
       SELECT m.id, 0 AS ref, m.retry_count >= q.max_retries AS dies, 'EXPIRED' AS kind, NULL::text AS reason
         FROM message m JOIN queue q ON q.name = m.queue_name
        WHERE m.status = 'UNACKED' AND m.lease_expires_at < now()
        ORDER BY m.lease_expires_at
        LIMIT $1
          FOR UPDATE OF m SKIP LOCKED),
     ${LEAVE_LEASE('now()', 'expired_count = coalesce(m.expired_count, 0) + 1')}
     ${LEFT_LEASE}`,
    values: [limit],
  });
  return untagLeftLease(rows);
}
