import type { Queryable } from '../pool.js';

/**
 * The messages of a delayed group (same queue and available_at), once the database's clock says
 * they are due; `waitMs` > 0 means not yet (the broker's clock ran ahead).
 */
export async function messageDueList(db: Queryable, queue: string, availableAt: string): Promise<{ waitMs: number; ids: string[] }> {
  const { rows } = await db.query<{ wait_ms: number; ids: string[] | null }>(
    `SELECT greatest(0, ceil(extract(epoch FROM ($2::timestamptz - clock_timestamp())) * 1000))::int AS wait_ms,
            CASE WHEN $2::timestamptz <= clock_timestamp() THEN
              (SELECT array_agg(id::text ORDER BY seq) FROM message
                WHERE queue_name = $1 AND status = 'PENDING' AND available_at = $2::timestamptz)
            END AS ids`,
    [queue, availableAt],
  );
  return { waitMs: rows[0].wait_ms, ids: rows[0].ids ?? [] };
}

/** Delayed groups of queues with consumer sockets, for a dispatcher that just took over. */
export async function messageDelayedGroupList(db: Queryable, limit: number): Promise<{ queue: string; available_at: string }[]> {
  const { rows } = await db.query<{ queue: string; available_at: string }>(
    `SELECT m.queue_name AS queue, to_json(m.available_at) #>> '{}' AS available_at
       FROM message m
      WHERE m.status = 'PENDING' AND m.available_at > now()
        AND EXISTS (SELECT 1 FROM ws_consumer w WHERE w.queue_name = m.queue_name)
      GROUP BY m.queue_name, m.available_at
      ORDER BY m.available_at
      LIMIT $1`,
    [limit],
  );
  return rows;
}
