import type { Queryable } from '../pool.js';
import type { HeldMessage } from './messageClaim.js';
import { BY_ID_OF } from './messageRow.js';
import { LEASE_CLEARED } from './messageSettle.js';
import { COUNTED } from './queueCounts.js';

/** A message given back: where it is claimable again, and when its claim was made (what counted it). */
export interface ReleasedRow {
  id: string;
  queue_name: string;
  /** As PostgreSQL wrote it (µs). */
  available_at: string;
  delayed: boolean;
  claimed_at: Date;
}

/**
 * Gives held messages back unsettled: PENDING again, retry count unchanged, for any consumer. Only
 * what this holder still holds from that very claim goes back (a lease that ran out and was
 * claimed again, even by the same identity, has a higher retry count), so a message never has two
 * holders. Called only by broker/putBack.ts, which tells everyone what went back.
 */
export async function messageRelease(db: Queryable, held: HeldMessage[], holder: string): Promise<ReleasedRow[]> {
  const { rows } = await db.query<ReleasedRow>({
    name: 'message_release',
    text: `WITH h AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS h (id uuid, retry_count int)),
     -- Locked first, to read when each was claimed: the UPDATE returns only the new row, whose claim time is gone.
     held AS (
       SELECT m.id, m.unacked_at FROM message m JOIN h ON m.id = h.id
        WHERE ${BY_ID_OF('h')} AND m.retry_count = h.retry_count AND m.status = 'UNACKED' AND m.holder = $2
          FOR UPDATE OF m),
     back AS (
       UPDATE message m SET status = 'PENDING', ${LEASE_CLEARED}
         FROM held
        WHERE ${BY_ID_OF('held')} AND m.id = held.id
       RETURNING m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed, held.unacked_at AS claimed_at),
     ${COUNTED({ from: 'back', pending: 1, unacked: -1 })}
     SELECT id, queue_name, available_at, delayed, claimed_at FROM back`,
    values: [JSON.stringify(held.map((message) => ({ id: message.id, retry_count: message.retryCount }))), holder],
  });
  return rows;
}
