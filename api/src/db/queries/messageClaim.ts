import type { Queryable } from '../pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from './messageRow.js';

/**
 * Claims up to `limit` of the next available PENDING messages of a queue for one holder.
 * SKIP LOCKED lets competing consumers take different rows instead of waiting on one another;
 * the lease runs for the queue's ack timeout. The claim index (queue, available_at, seq) WHERE
 * PENDING finds the head of the queue without touching the rest of a long backlog.
 */
export async function messageClaim(
  db: Queryable,
  claim: { queue: string; holder: string; consumerId: string; limit: number },
): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `WITH c AS (
       SELECT id FROM message
        WHERE queue_name = $1 AND status = 'PENDING' AND available_at <= now()
        ORDER BY available_at, seq
        LIMIT $4
        FOR UPDATE SKIP LOCKED)
     UPDATE message m
        SET status = 'UNACKED', holder = $2, consumer_id = $3, unacked_at = now(),
            lease_expires_at = now() + make_interval(secs => q.ack_timeout_seconds)
       FROM c, queue q
      WHERE m.id = c.id AND q.name = m.queue_name
     RETURNING ${MESSAGE_COLUMNS}, m.status, m.lease_expires_at`,
    [claim.queue, claim.holder, claim.consumerId, claim.limit],
  );
  return rows.sort((a, b) => a.available_at.getTime() - b.available_at.getTime() || a.seq - b.seq);
}

/** After an empty claim: does the queue exist, and when does its next PENDING message become available? */
export async function messageNextAvailable(
  db: Queryable,
  queue: string,
): Promise<{ queueExists: boolean; nextAvailableAt: Date | null }> {
  const { rows } = await db.query<{ found: boolean; next: Date | null }>(
    `SELECT EXISTS (SELECT 1 FROM queue WHERE name = $1) AS found,
            (SELECT available_at FROM message WHERE queue_name = $1 AND status = 'PENDING'
              ORDER BY available_at, seq LIMIT 1) AS next`,
    [queue],
  );
  return { queueExists: rows[0].found, nextAvailableAt: rows[0].next };
}

/** Puts claimed messages back as if never claimed (retry count unchanged): their requester left. */
export async function messageUnclaim(db: Queryable, ids: string[], holder: string): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE message SET status = 'PENDING', holder = NULL, consumer_id = NULL, unacked_at = NULL, lease_expires_at = NULL
      WHERE id = ANY($1::uuid[]) AND status = 'UNACKED' AND holder = $2`,
    [ids, holder],
  );
  return rowCount ?? 0;
}
