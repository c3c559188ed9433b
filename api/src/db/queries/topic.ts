import type { Queryable } from '../pool.js';

export interface TopicRow {
  name: string;
  created_at: Date;
}
export interface TopicWithQueuesRow extends TopicRow {
  queues: string[];
}

/** Returns null when the name is taken. */
export async function topicInsert(db: Queryable, name: string): Promise<TopicRow | null> {
  const { rows } = await db.query<TopicRow>('INSERT INTO topic (name) VALUES ($1) ON CONFLICT DO NOTHING RETURNING name, created_at', [name]);
  return rows[0] ?? null;
}

export async function topicListWithQueues(db: Queryable): Promise<TopicWithQueuesRow[]> {
  const { rows } = await db.query<TopicWithQueuesRow>(
    `SELECT t.name, t.created_at,
            coalesce(array_agg(q.name ORDER BY q.name) FILTER (WHERE q.name IS NOT NULL), '{}') AS queues
       FROM topic t LEFT JOIN queue q ON q.topic_name = t.name
      GROUP BY t.name ORDER BY t.name`,
  );
  return rows;
}

/** Deletes a topic; a topic with bound queues raises a foreign-key violation (23503). */
export async function topicDelete(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM topic WHERE name = $1', [name]);
  return rowCount === 1;
}
