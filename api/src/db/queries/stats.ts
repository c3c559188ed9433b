import type { Queryable } from '../pool.js';

export interface OverviewRow {
  pending: number;
  unacked: number;
  acked: number;
  dead: number;
  topics: number;
  queues: number;
}

/** Broker-wide counts by status, in one scan. */
export async function statsOverview(db: Queryable): Promise<OverviewRow> {
  const { rows } = await db.query<OverviewRow>(
    `SELECT count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
            count(*) FILTER (WHERE status = 'UNACKED')::int AS unacked,
            count(*) FILTER (WHERE status = 'ACKED')::int AS acked,
            count(*) FILTER (WHERE status = 'DEAD')::int AS dead,
            (SELECT count(*) FROM topic)::int AS topics,
            (SELECT count(*) FROM queue)::int AS queues
       FROM message`,
  );
  return rows[0];
}

export interface QueueStatsRow {
  queue: string;
  topic: string;
  pending: number;
  unacked: number;
  acked: number;
  dead: number;
  oldest_pending_age_seconds: number;
}

/**
 * Per-queue counts in one grouped query. The oldest pending age counts from publication and
 * only for messages that are already available (a delayed message is not yet late).
 */
export async function statsByQueue(db: Queryable): Promise<QueueStatsRow[]> {
  const { rows } = await db.query<QueueStatsRow>(
    `SELECT q.name AS queue, q.topic_name AS topic,
            count(m.id) FILTER (WHERE m.status = 'PENDING')::int AS pending,
            count(m.id) FILTER (WHERE m.status = 'UNACKED')::int AS unacked,
            count(m.id) FILTER (WHERE m.status = 'ACKED')::int AS acked,
            count(m.id) FILTER (WHERE m.status = 'DEAD')::int AS dead,
            coalesce(floor(extract(epoch FROM now() - min(m.published_at)
              FILTER (WHERE m.status = 'PENDING' AND m.available_at <= now()))), 0)::int AS oldest_pending_age_seconds
       FROM queue q LEFT JOIN message m ON m.queue_name = q.name
      GROUP BY q.name, q.topic_name
      ORDER BY q.name`,
  );
  return rows;
}
