import type { Queryable } from '../pool.js';
import { BY_ID_OF } from './messageRow.js';
import { APPEND_TO_GROUPS, KEYED_IN_ORDER, PLACED_STATUS } from './orderingGroup.js';
import { COUNTED } from './queueCounts.js';

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
const REVIVE = `${KEYED_IN_ORDER('d', 'id')},
  ${APPEND_TO_GROUPS('keyed')},
  ${COUNTED({ from: 'd', dead: -1, pending: 1, bytes: 1 })}
  INSERT INTO message (id, seq, queue_name, topic_name, payload, headers, status, retry_count, published_at, available_at,
                       ordering_key, ordering_pos, priority, group_key)
  SELECT d.id, d.seq, d.queue_name, d.topic_name, d.payload, d.headers, ${PLACED_STATUS('p')},
         0, d.published_at, now(), d.ordering_key, p.pos, d.priority, d.group_key
    FROM d LEFT JOIN placed p ON p.id = d.id
  RETURNING id, queue_name, to_json(available_at) #>> '{}' AS available_at`;

/**
 * \`WITH d\`: the dead messages \`deletion\` (of message_dead as \`m\`) removed, with their queues'
 * dead counts lowered in the same statement; the caller selects from \`d\`.
 */
const DELETED = (deletion: string, startsWith = true) =>
  `${startsWith ? 'WITH ' : ''}d AS (${deletion} RETURNING m.id, m.queue_name), ${COUNTED({ from: 'd', dead: -1 })}`;

/** DEAD → PENDING for one message; null when it is not DEAD (or does not exist). */
export async function messageReplay(db: Queryable, id: string): Promise<ReplayedRow | null> {
  const { rows } = await db.query<ReplayedRow>(`WITH d AS (DELETE FROM message_dead WHERE id = $1 RETURNING *, octet_length(payload) AS bytes), ${REVIVE}`, [
    id,
  ]);
  return rows[0] ?? null;
}

/** DEAD → PENDING for each of these ids that is DEAD now; the others are not returned. */
export async function messageReplayIds(db: Queryable, ids: string[]): Promise<ReplayedRow[]> {
  const { rows } = await db.query<ReplayedRow>(
    `WITH d AS (DELETE FROM message_dead WHERE id = ANY($1::uuid[]) RETURNING *, octet_length(payload) AS bytes), ${REVIVE}`,
    [ids],
  );
  return rows;
}

/**
 * Deletes one DEAD message; false when it is not DEAD (or does not exist). A replay of the same
 * message deletes the same row: whichever statement locks it first wins, and the other, after
 * waiting for it, finds no row.
 */
export async function messageDeadDelete(db: Queryable, id: string): Promise<boolean> {
  return (await messageDeadDeleteIds(db, [id])).length === 1;
}

/** Deletes each of these ids that is DEAD now; returns the ids deleted. */
export async function messageDeadDeleteIds(db: Queryable, ids: string[]): Promise<{ id: string; queue_name: string }[]> {
  const { rows } = await db.query<{ id: string; queue_name: string }>(
    `${DELETED('DELETE FROM message_dead m WHERE m.id = ANY($1::uuid[])')} SELECT id, queue_name FROM d`,
    [ids],
  );
  return rows;
}

export interface DeadSelector {
  queue?: string;
  reason?: string;
}

/**
 * The next `limit` dead messages matching the filter, oldest first, locked, skipping rows another
 * replay or delete holds (so concurrent ones share the work and never take a row twice). Each
 * filter is in the statement only when given, so it keeps its index.
 */
const PICK = (filter: DeadSelector) => `pick AS (
  SELECT id FROM message_dead WHERE ${filter.queue === undefined ? '$1::text IS NULL' : 'queue_name = $1'}
     AND ${filter.reason === undefined ? '$2::text IS NULL' : 'dead_reason = $2'}
   ORDER BY available_at, seq LIMIT $3 FOR UPDATE SKIP LOCKED)`;

/** DEAD → PENDING for up to `limit` dead messages matching the filter, oldest first. */
export async function messageReplayMatching(db: Queryable, filter: DeadSelector, limit: number): Promise<ReplayedRow[]> {
  const { rows } = await db.query<ReplayedRow>(
    `WITH ${PICK(filter)},
          d AS (DELETE FROM message_dead m USING pick WHERE ${BY_ID_OF('pick')} AND m.id = pick.id RETURNING m.*, octet_length(m.payload) AS bytes),
     ${REVIVE}`,
    [filter.queue ?? null, filter.reason ?? null, limit],
  );
  return rows;
}

/** Deletes up to `limit` dead messages matching the filter, oldest first; returns how many. */
export async function messageDeadDeleteMatching(db: Queryable, filter: DeadSelector, limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH ${PICK(filter)}, ${DELETED(`DELETE FROM message_dead m USING pick WHERE ${BY_ID_OF('pick')} AND m.id = pick.id`, false)}
     SELECT count(*)::int AS n FROM d`,
    [filter.queue ?? null, filter.reason ?? null, limit],
  );
  return rows[0].n;
}

/** Deletes dead messages that died before the retention allows, in batches. */
export async function messageDeadDeleteExpired(db: Queryable, retentionHours: number, limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `${DELETED(`DELETE FROM message_dead m WHERE m.id IN (
       SELECT id FROM message_dead WHERE dead_at < now() - make_interval(hours => $1) ORDER BY dead_at LIMIT $2)`)}
     SELECT count(*)::int AS n FROM d`,
    [retentionHours, limit],
  );
  return rows[0].n;
}
