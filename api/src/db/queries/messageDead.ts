import type { Queryable } from '../pool.js';
import { BY_ID_OF } from './messageRow.js';
import { APPEND_TO_GROUPS } from './orderingGroup.js';

export interface ReplayedRow {
  id: string;
  queue_name: string;
  available_at: string;
}

/**
 * The rows `d` (from message_dead, deleted) go back to the live table: PENDING, retries reset. A
 * message with an ordering key goes to the end of its key's order, as if published again: PENDING
 * when its key has nothing live, else BLOCKED behind the others (positions as in messagePublish).
 */
const REVIVE = `keyed AS (
    SELECT d.id, d.queue_name, d.ordering_key, row_number() OVER w AS k,
           count(*) OVER (PARTITION BY d.queue_name, d.ordering_key) AS n
      FROM d WHERE d.ordering_key IS NOT NULL
    WINDOW w AS (PARTITION BY d.queue_name, d.ordering_key ORDER BY d.available_at, d.seq)),
  ${APPEND_TO_GROUPS('keyed')}
  INSERT INTO message (id, seq, queue_name, topic_name, payload, headers, status, retry_count, published_at, available_at,
                       ordering_key, ordering_pos)
  SELECT d.id, d.seq, d.queue_name, d.topic_name, d.payload, d.headers, CASE WHEN p.head = false THEN 'BLOCKED' ELSE 'PENDING' END,
         0, d.published_at, now(), d.ordering_key, p.pos
    FROM d LEFT JOIN placed p ON p.id = d.id
  RETURNING id, queue_name, to_json(available_at) #>> '{}' AS available_at`;

/** DEAD → PENDING for one message; null when it is not DEAD (or does not exist). */
export async function messageReplay(db: Queryable, id: string): Promise<ReplayedRow | null> {
  const { rows } = await db.query<ReplayedRow>(
    `WITH d AS (DELETE FROM message_dead WHERE id = $1 RETURNING *), ${REVIVE}`,
    [id],
  );
  return rows[0] ?? null;
}

/** DEAD → PENDING for up to `limit` of a queue's dead messages, oldest first. */
export async function messageReplayQueue(db: Queryable, queue: string, limit: number): Promise<ReplayedRow[]> {
  const { rows } = await db.query<ReplayedRow>(
    `WITH pick AS (SELECT id FROM message_dead WHERE queue_name = $1
                    ORDER BY available_at, seq LIMIT $2 FOR UPDATE SKIP LOCKED),
          d AS (DELETE FROM message_dead m USING pick WHERE ${BY_ID_OF('pick')} AND m.id = pick.id RETURNING m.*),
     ${REVIVE}`,
    [queue, limit],
  );
  return rows;
}

/** Deletes dead messages that died before the retention allows, in batches. */
export async function messageDeadDeleteExpired(db: Queryable, retentionHours: number, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM message_dead WHERE id IN (
       SELECT id FROM message_dead WHERE dead_at < now() - make_interval(hours => $1) ORDER BY dead_at LIMIT $2)`,
    [retentionHours, limit],
  );
  return rowCount ?? 0;
}
