import type { Queryable } from '../pool.js';

export interface OverviewRow {
  pending: number;
  unacked: number;
  acked: number;
  dead: number;
  topics: number;
  queues: number;
}

/**
 * Broker-wide counts (messages waiting behind their ordering key count as PENDING). PENDING and UNACKED are counted in the live table along its two partial
 * indexes; acked comes from the per-queue counters, never from the acked history, so the cost
 * does not grow with history.
 */
export async function statsOverview(db: Queryable): Promise<OverviewRow> {
  const { rows } = await db.query<OverviewRow>(
    `SELECT ((SELECT count(*) FROM message WHERE status = 'PENDING')
              + (SELECT count(*) FROM message WHERE status = 'BLOCKED'))::int AS pending,
            (SELECT count(*) FROM message WHERE status = 'UNACKED')::int AS unacked,
            (SELECT coalesce(sum(acked), 0) FROM queue_counter)::int AS acked,
            (SELECT count(*) FROM message_dead)::int AS dead,
            (SELECT count(*) FROM topic)::int AS topics,
            (SELECT count(*) FROM queue)::int AS queues`,
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
 * Per-queue counts, each read along an index of its own table (no scan of history). The oldest
 * pending age is that of the next message to be delivered, counted from publication and only once
 * it is available (a delayed message is not yet late).
 */
export async function statsByQueue(db: Queryable): Promise<QueueStatsRow[]> {
  const { rows } = await db.query<QueueStatsRow>(
    `SELECT q.name AS queue, q.topic_name AS topic,
            ((SELECT count(*) FROM message m WHERE m.queue_name = q.name AND m.status = 'PENDING')
              + (SELECT count(*) FROM message m WHERE m.queue_name = q.name AND m.status = 'BLOCKED'))::int AS pending,
            (SELECT count(*) FROM message m WHERE m.queue_name = q.name AND m.status = 'UNACKED')::int AS unacked,
            (SELECT coalesce(sum(k.acked), 0) FROM queue_counter k WHERE k.queue_name = q.name)::int AS acked,
            (SELECT count(*) FROM message_dead d WHERE d.queue_name = q.name)::int AS dead,
            coalesce((SELECT floor(extract(epoch FROM now() - m.published_at)) FROM message m
                       WHERE m.queue_name = q.name AND m.status = 'PENDING' AND m.available_at <= now()
                       ORDER BY m.available_at, m.seq LIMIT 1), 0)::int AS oldest_pending_age_seconds
       FROM queue q
      ORDER BY q.name`,
  );
  return rows;
}
