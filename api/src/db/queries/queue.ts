import type { Queryable } from '../pool.js';

export interface QueueRow {
  name: string;
  topic_name: string;
  ack_timeout_seconds: number;
  max_retries: number;
  created_at: Date;
}

const COLUMNS = 'name, topic_name, ack_timeout_seconds, max_retries, created_at';

/** Inserts a queue; a duplicate name raises 23505, an unknown topic 23503. */
export async function queueInsert(
  db: Queryable,
  queue: { name: string; topicName: string; ackTimeoutSeconds: number; maxRetries: number },
): Promise<QueueRow> {
  const { rows } = await db.query<QueueRow>(
    `INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries)
     VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [queue.name, queue.topicName, queue.ackTimeoutSeconds, queue.maxRetries],
  );
  return rows[0];
}

export async function queueList(db: Queryable): Promise<QueueRow[]> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queue ORDER BY name`);
  return rows;
}

export async function queueExists(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM queue WHERE name = $1', [name]);
  return rowCount === 1;
}

/** Deletes a queue; its messages go with it (ON DELETE CASCADE). */
export async function queueDelete(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM queue WHERE name = $1', [name]);
  return rowCount === 1;
}

/** Deletes every message of a queue; null when the queue does not exist. */
export async function queuePurge(db: Queryable, name: string): Promise<number | null> {
  const { rows } = await db.query<{ found: number; purged: number }>(
    `WITH q AS (SELECT name FROM queue WHERE name = $1),
          d AS (DELETE FROM message WHERE queue_name IN (SELECT name FROM q) RETURNING 1)
     SELECT (SELECT count(*) FROM q)::int AS found, (SELECT count(*) FROM d)::int AS purged`,
    [name],
  );
  return rows[0].found === 1 ? rows[0].purged : null;
}
