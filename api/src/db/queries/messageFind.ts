import type { Queryable } from '../pool.js';
import { DEAD_COLUMNS, LIVE_STATUS, MESSAGE_COLUMNS, NO_DEAD_COLUMNS, type MessageRow } from './messageRow.js';

/**
 * One message by id, from whichever table holds it: a transition moves a row between tables in
 * one transaction, so one statement finds it in exactly one of them. Each part is an index probe:
 * the primary keys of the live and dead tables, and the id index of each hourly partition of the
 * history (a day of retention is some 25 partitions, each a probe of a few pages). Acked messages past their queue's retention
 * are not found, as the listing does not show them, even before their partition is dropped. A
 * message waiting behind its ordering key is PENDING. A dead message carries when, how and why it died, as in the dead-letter listing.
 */
export async function messageFindById(db: Queryable, id: string, defaultRetentionHours: number): Promise<MessageRow | null> {
  const { rows } = await db.query<MessageRow>({
    name: 'message_find_by_id',
    text: `SELECT ${MESSAGE_COLUMNS}, ${LIVE_STATUS}, m.lease_expires_at, ${NO_DEAD_COLUMNS} FROM message m WHERE m.id = $1
     UNION ALL
     SELECT ${MESSAGE_COLUMNS}, 'DEAD', NULL::timestamptz, ${DEAD_COLUMNS} FROM message_dead m WHERE m.id = $1
     UNION ALL
     SELECT ${MESSAGE_COLUMNS}, 'ACKED', NULL::timestamptz, ${NO_DEAD_COLUMNS} FROM message_acked m WHERE m.id = $1
        AND m.acked_at > now() - make_interval(hours => (
              SELECT coalesce(q.acked_retention_hours, $2) FROM queue q WHERE q.name = m.queue_name))
     LIMIT 1`,
    values: [id, defaultRetentionHours],
  });
  return rows[0] ?? null;
}
