import type { Queryable } from '../pool.js';
import { APPEND_TO_GROUPS, KEYED_IN_ORDER, PLACED_STATUS } from './orderingGroup.js';
import { COUNTED } from './queueCounts.js';

/**
 * Replay from history: copies of a queue's retained acked messages become new PENDING deliveries.
 * Positions are passed as PostgreSQL's own text (microseconds), never through a JS Date (which
 * keeps milliseconds and would move a cursor back onto rows already copied).
 */

/** Headers the broker writes on a replayed copy; publishers may not set names with this prefix. */
export const RESERVED_HEADER_PREFIX = 'miniqueue-';
export const REPLAY_OF_HEADER = 'miniqueue-replay-of';

/** Where a replay starts: messages with (published_at, seq) after this. */
export interface ReplayStart {
  publishedAt: string;
  seq: number;
}

export interface HistoryReplayRow {
  id: string;
  queue_name: string;
  from_published_at: string;
  from_seq: number;
  until_acked_at: string;
  cursor_available_at: string;
  cursor_seq: number;
  replayed: number;
  finished: boolean;
}

const ROW = `id, queue_name, to_json(from_published_at) #>> '{}' AS from_published_at, from_seq,
  to_json(until_acked_at) #>> '{}' AS until_acked_at, to_json(cursor_available_at) #>> '{}' AS cursor_available_at,
  cursor_seq, replayed, finished_at IS NOT NULL AS finished`;

/**
 * What a replay reads: the queue's acked messages published after the start, acked by the time the
 * request was made, still inside the queue's retention ($6 hours), and not themselves replayed copies
 * (their originals are in the same window: acked no earlier than published). Read along
 * message_acked_queue_idx from the cursor ($2, $3): available_at is never before published_at, so
 * every message published after the start is at or after it on that index.
 */
const REPLAYABLE = `m.queue_name = $1
  AND (m.available_at, m.seq) > ($2::timestamptz, $3::bigint)
  AND (m.published_at, m.seq) > ($4::timestamptz, $5::bigint)
  AND m.acked_at <= $7::timestamptz
  AND m.acked_at > now() - make_interval(hours => $6)
  AND NOT (m.headers ? '${REPLAY_OF_HEADER}')`;

/** The (published_at, seq) of a message of this queue, wherever it is now; null when none. */
export async function replayAnchorFind(db: Queryable, queue: string, id: string): Promise<ReplayStart | null> {
  const { rows } = await db.query<ReplayStart>(
    `SELECT to_json(published_at) #>> '{}' AS "publishedAt", seq FROM (
       SELECT published_at, seq FROM message_acked WHERE id = $2 AND queue_name = $1
       UNION ALL SELECT published_at, seq FROM message WHERE id = $2 AND queue_name = $1
       UNION ALL SELECT published_at, seq FROM message_dead WHERE id = $2 AND queue_name = $1) m LIMIT 1`,
    [queue, id],
  );
  return rows[0] ?? null;
}

/** The earliest publish time whose acked messages are all still kept, and whether `from` is before it. */
export async function historyRetainedFrom(db: Queryable, retentionHours: number, from: string): Promise<{ earliest: string; before: boolean }> {
  const { rows } = await db.query<{ earliest: string; before: boolean }>(
    `SELECT to_json(now() - make_interval(hours => $1)) #>> '{}' AS earliest,
            $2::timestamptz < now() - make_interval(hours => $1) AS before`,
    [retentionHours, from],
  );
  return rows[0];
}

/** How many messages a replay from `start` would copy now (a dry run). */
export async function historyReplayCount(db: Queryable, queue: string, start: ReplayStart, retentionHours: number): Promise<{ count: number; until: string }> {
  const { rows } = await db.query<{ count: number; until: string }>(
    `SELECT count(*)::int AS count, to_json(now()) #>> '{}' AS until FROM message_acked m
      WHERE ${REPLAYABLE}`,
    [queue, start.publishedAt, 0, start.publishedAt, start.seq, retentionHours, 'now'],
  );
  return rows[0];
}

/**
 * A new replay request; with an idempotency key already used on this queue, nothing (the caller
 * then reads that one with historyReplayByKey).
 */
export async function historyReplayInsert(db: Queryable, queue: string, start: ReplayStart, key: string | null): Promise<HistoryReplayRow | null> {
  const { rows } = await db.query<HistoryReplayRow>(
    `INSERT INTO history_replay (id, queue_name, idempotency_key, from_published_at, from_seq, until_acked_at, cursor_available_at, cursor_seq)
     VALUES (gen_random_uuid(), $1, $2, $3::timestamptz, $4, now(), $3::timestamptz, 0)
     ON CONFLICT (queue_name, idempotency_key) DO NOTHING
     RETURNING ${ROW}`,
    [queue, key, start.publishedAt, start.seq],
  );
  return rows[0] ?? null;
}

/** The request made earlier with this key, and whether it started where this one asks. */
export async function historyReplayByKey(
  db: Queryable,
  queue: string,
  key: string,
  start: ReplayStart,
): Promise<(HistoryReplayRow & { same_start: boolean }) | null> {
  const { rows } = await db.query<HistoryReplayRow & { same_start: boolean }>(
    `SELECT ${ROW}, (from_published_at, from_seq) = ($3::timestamptz, $4::bigint) AS same_start
       FROM history_replay WHERE queue_name = $1 AND idempotency_key = $2`,
    [queue, key, start.publishedAt, start.seq],
  );
  return rows[0] ?? null;
}

/**
 * Takes the live table's ordinary insert lock first, so that a batch orders its locks as a queue
 * deletion does (message tables, then the queue's rows): the two wait for each other, never deadlock.
 */
export async function messageTableLockForInsert(db: Queryable): Promise<void> {
  await db.query('LOCK TABLE message IN ROW EXCLUSIVE MODE');
}

/**
 * Locks the request until the transaction ends and reads its cursor as last committed: two
 * callers of one request take batches one after the other, each from where the other stopped.
 */
export async function historyReplayLock(db: Queryable, id: string): Promise<HistoryReplayRow | null> {
  const { rows } = await db.query<HistoryReplayRow>(`SELECT ${ROW} FROM history_replay WHERE id = $1 FOR UPDATE`, [id]);
  return rows[0] ?? null;
}

export interface ReplayCopy {
  id: string;
  queue_name: string;
  available_at: string;
}

/**
 * One batch of a locked request: up to `limit` copies, in the order of the originals, as new
 * PENDING messages (new id, retries 0, published now) whose headers name the original, its publish
 * time and the request, and mark the delivery as a redelivery; the cursor moves past them in the
 * same statement. A copy of a message with an ordering key joins the end of its key's order, as a
 * publish or a dead-letter replay does (BLOCKED behind what is live of the key). Finished when the
 * batch came out short.
 */
export async function historyReplayBatch(
  db: Queryable,
  request: HistoryReplayRow,
  retentionHours: number,
  limit: number,
): Promise<{ copies: ReplayCopy[]; replayed: number; finished: boolean }> {
  const { rows } = await db.query<{ copies: ReplayCopy[] | null; replayed: number; finished: boolean }>(
    `WITH pick AS MATERIALIZED (
       SELECT miniqueue_uuidv7() AS copy_id, m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers,
              m.published_at, m.available_at, m.ordering_key, m.priority, m.group_key
         FROM message_acked m WHERE ${REPLAYABLE}
        ORDER BY m.available_at, m.seq LIMIT $8),
     ${KEYED_IN_ORDER('pick', 'copy_id')},
     ${APPEND_TO_GROUPS('keyed')},
     copied AS (
       INSERT INTO message (id, queue_name, topic_name, payload, headers, status, retry_count, published_at, available_at,
                            ordering_key, ordering_pos, priority, group_key)
       SELECT p.copy_id, p.queue_name, p.topic_name, p.payload,
              p.headers || jsonb_build_object(
                '${REPLAY_OF_HEADER}', p.id::text,
                'miniqueue-original-published-at', to_json(p.published_at) #>> '{}',
                'miniqueue-replay-id', $9::uuid::text,
                'miniqueue-redelivered', 'true'),
              ${PLACED_STATUS('g')}, 0, now(), now(), p.ordering_key, g.pos, p.priority, p.group_key
         FROM pick p LEFT JOIN placed g ON g.id = p.copy_id ORDER BY p.available_at, p.seq
       RETURNING id, queue_name, to_json(available_at) #>> '{}' AS available_at, octet_length(payload) AS bytes),
     ${COUNTED({ from: 'copied', pending: 1, bytes: 1 })},
     last AS (SELECT available_at, seq FROM pick ORDER BY available_at DESC, seq DESC LIMIT 1),
     moved AS (
       UPDATE history_replay h
          SET cursor_available_at = coalesce((SELECT available_at FROM last), h.cursor_available_at),
              cursor_seq = coalesce((SELECT seq FROM last), h.cursor_seq),
              replayed = h.replayed + (SELECT count(*) FROM pick),
              finished_at = CASE WHEN (SELECT count(*) FROM pick) < $8 THEN now() END
        WHERE h.id = $9::uuid
       RETURNING replayed, finished_at IS NOT NULL AS finished)
     SELECT (SELECT json_agg(c) FROM copied c) AS copies, moved.replayed, moved.finished FROM moved`,
    [
      request.queue_name,
      request.cursor_available_at,
      request.cursor_seq,
      request.from_published_at,
      request.from_seq,
      retentionHours,
      request.until_acked_at,
      limit,
      request.id,
    ],
  );
  const row = rows[0];
  return { copies: row?.copies ?? [], replayed: row?.replayed ?? request.replayed, finished: row?.finished ?? true };
}

/** Forgets finished replay requests older than the idempotency window, in batches. */
export async function historyReplayDeleteOld(db: Queryable, olderThanHours: number, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM history_replay WHERE id IN (
       SELECT id FROM history_replay WHERE created_at < now() - make_interval(hours => $1) ORDER BY created_at LIMIT $2)`,
    [olderThanHours, limit],
  );
  return rowCount ?? 0;
}
