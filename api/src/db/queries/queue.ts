import type { Queryable } from '../pool.js';
import type { HeaderFilter } from '../../broker/filter.js';

export interface QueueRow {
  name: string;
  topic_name: string;
  ack_timeout_seconds: number;
  max_retries: number;
  acked_retention_hours: number | null;
  require_ordering_key: boolean;
  filter: HeaderFilter | null;
  created_at: Date;
}

const COLUMNS = 'name, topic_name, ack_timeout_seconds, max_retries, acked_retention_hours, require_ordering_key, filter, created_at';

export interface QueueSettings {
  ackTimeoutSeconds: number;
  maxRetries: number;
  /** null: the broker's default. */
  ackedRetentionHours: number | null;
  /** Publishes without an ordering key to this queue's topic are refused. */
  requireOrderingKey: boolean;
  /** null: every message of the topic. */
  filter: HeaderFilter | null;
}

/** Inserts a queue and its acked counters; a duplicate name raises 23505, an unknown topic 23503. */
export async function queueInsert(db: Queryable, queue: { name: string; topicName: string } & QueueSettings): Promise<QueueRow> {
  const { rows } = await db.query<QueueRow>(
    `WITH q AS (
       INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries, acked_retention_hours, require_ordering_key, filter)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING ${COLUMNS}),
     counters AS (INSERT INTO queue_counter (queue_name, shard) SELECT q.name, s FROM q, generate_series(0, 15) AS s)
     SELECT * FROM q`,
    [
      queue.name,
      queue.topicName,
      queue.ackTimeoutSeconds,
      queue.maxRetries,
      queue.ackedRetentionHours,
      queue.requireOrderingKey,
      queue.filter === null ? null : JSON.stringify(queue.filter),
    ],
  );
  return rows[0];
}

/** Changes the settings given (undefined = keep); null when there is no such queue. */
export async function queueUpdate(db: Queryable, name: string, settings: Partial<QueueSettings>): Promise<QueueRow | null> {
  const { rows } = await db.query<QueueRow>(
    `UPDATE queue SET ack_timeout_seconds = coalesce($2, ack_timeout_seconds),
                      max_retries = coalesce($3, max_retries),
                      acked_retention_hours = CASE WHEN $4 THEN $5 ELSE acked_retention_hours END,
                      require_ordering_key = coalesce($6, require_ordering_key),
                      filter = CASE WHEN $7 THEN $8::jsonb ELSE filter END
      WHERE name = $1 RETURNING ${COLUMNS}`,
    [
      name,
      settings.ackTimeoutSeconds ?? null,
      settings.maxRetries ?? null,
      settings.ackedRetentionHours !== undefined,
      settings.ackedRetentionHours ?? null,
      settings.requireOrderingKey ?? null,
      settings.filter !== undefined,
      settings.filter ? JSON.stringify(settings.filter) : null,
    ],
  );
  return rows[0] ?? null;
}

export async function queueList(db: Queryable): Promise<QueueRow[]> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queue ORDER BY name`);
  return rows;
}

export async function queueGet(db: Queryable, name: string): Promise<QueueRow | null> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queue WHERE name = $1`, [name]);
  return rows[0] ?? null;
}

export async function queueExists(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM queue WHERE name = $1', [name]);
  return rowCount === 1;
}

/**
 * Takes the message tables from writers until the transaction ends. A publish that read the queue
 * before it was deleted has then committed (and its rows are deleted with the rest), and one that
 * starts later no longer sees the queue: no message outlives its queue. Readers are not blocked.
 * Run inside a transaction, before deleting or purging a queue's messages.
 */
export async function messageTablesLockWriters(db: Queryable): Promise<void> {
  await db.query('LOCK TABLE message, message_dead, message_acked, ordering_group IN SHARE ROW EXCLUSIVE MODE');
}

/** Deletes a queue (its counters go with it); false when there was none. */
export async function queueDelete(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM queue WHERE name = $1', [name]);
  return rowCount === 1;
}

/** Deletes every message of a queue, wherever it is, its ordering keys' positions, and zeroes its counts. */
export async function queueMessagesDelete(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ deleted: number }>(
    `WITH live AS (DELETE FROM message WHERE queue_name = $1 RETURNING 1),
          dead AS (DELETE FROM message_dead WHERE queue_name = $1 RETURNING 1),
          acked AS (DELETE FROM message_acked WHERE queue_name = $1 RETURNING 1),
          counted AS (UPDATE queue_counter SET acked = 0, pending = 0, unacked = 0, dead = 0 WHERE queue_name = $1),
          groups AS (DELETE FROM ordering_group WHERE queue_name = $1)
     SELECT ((SELECT count(*) FROM live) + (SELECT count(*) FROM dead) + (SELECT count(*) FROM acked))::int AS deleted`,
    [name],
  );
  return rows[0].deleted;
}
