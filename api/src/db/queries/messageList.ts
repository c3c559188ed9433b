import type { Queryable } from '../pool.js';
import { MESSAGE_COLUMNS, type MessageRow } from './messageRow.js';

/** Where a page starts: after this available_at (microseconds since 1970) and seq, both in digits. */
export interface Position {
  micros: string;
  seq: string;
}

const START: Position = { micros: '0', seq: '0' };
const AFTER = `(m.available_at, m.seq) > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::bigint)`;
const ORDER = 'ORDER BY m.available_at, m.seq LIMIT $4';
/** Each part is read only when the status filter ($5, NULL = all) asks for it. */
const WANTS = (status: string) => `($5::text IS NULL OR $5::text = '${status}')`;

/**
 * One page of a queue's messages in the order they became available (for messages never delayed
 * or redelivered: the order they were published), whatever table holds them now. Each table is
 * read along an index in that order: PENDING along the claim index, UNACKED (few: one per lease)
 * from the lease index, DEAD and ACKED along their queue indexes. Acked messages past their
 * queue's retention are not shown, even before their partition is dropped.
 */
export async function messageListPage(
  db: Queryable,
  filter: { queue: string; status?: string; after?: Position; limit: number; defaultRetentionHours: number },
): Promise<MessageRow[]> {
  const after = filter.after ?? START;
  const { rows } = await db.query<MessageRow>(
    `SELECT * FROM (
       (SELECT ${MESSAGE_COLUMNS}, m.status, m.lease_expires_at FROM message m
         WHERE m.queue_name = $1 AND m.status = 'PENDING' AND ${WANTS('PENDING')} AND ${AFTER} ${ORDER})
       UNION ALL
       -- Waiting behind an earlier message of their ordering key: PENDING, as the contract knows it.
       (SELECT ${MESSAGE_COLUMNS}, 'PENDING', m.lease_expires_at FROM message m
         WHERE m.queue_name = $1 AND m.status = 'BLOCKED' AND ${WANTS('PENDING')} AND ${AFTER} ${ORDER})
       UNION ALL
       (SELECT ${MESSAGE_COLUMNS}, m.status, m.lease_expires_at FROM message m
         WHERE m.queue_name = $1 AND m.status = 'UNACKED' AND ${WANTS('UNACKED')} AND ${AFTER} ${ORDER})
       UNION ALL
       (SELECT ${MESSAGE_COLUMNS}, 'DEAD', NULL::timestamptz FROM message_dead m
         WHERE m.queue_name = $1 AND ${WANTS('DEAD')} AND ${AFTER} ${ORDER})
       UNION ALL
       (SELECT ${MESSAGE_COLUMNS}, 'ACKED', NULL::timestamptz FROM message_acked m
         WHERE m.queue_name = $1 AND ${WANTS('ACKED')} AND ${AFTER}
           AND m.acked_at > now() - make_interval(hours => (
                 SELECT coalesce(q.acked_retention_hours, $6) FROM queue q WHERE q.name = $1))
         ${ORDER})
     ) m ${ORDER}`,
    [filter.queue, after.micros, after.seq, filter.limit, filter.status ?? null, filter.defaultRetentionHours],
  );
  return rows;
}

/** One page of dead messages, of one queue or of all, in the order they became available. */
export async function deadListPage(
  db: Queryable,
  filter: { queue?: string; after?: Position; limit: number },
): Promise<MessageRow[]> {
  const after = filter.after ?? START;
  // Two statements rather than `$1 IS NULL OR …`, so that each keeps its own index.
  const where = filter.queue === undefined ? '$1::text IS NULL' : 'm.queue_name = $1';
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS}, 'DEAD' AS status, NULL::timestamptz AS lease_expires_at FROM message_dead m
      WHERE ${where} AND ${AFTER} ${ORDER}`,
    [filter.queue ?? null, after.micros, after.seq, filter.limit],
  );
  return rows;
}
