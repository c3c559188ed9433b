import type { Queryable } from '../pool.js';

export interface QueueConsumerRow {
  consumer_id: string;
  last_seen_at: Date | null;
  in_flight: number;
}

/** The most consumers one answer lists: a page of people to read, not an export. */
export const CONSUMER_LIST_LIMIT = 100;

/**
 * Who consumes a queue: every identity seen asking it for messages in the last hour (the rate
 * recorder marks them every 5 seconds in `queue_poller`) joined with the leases held now, so a
 * consumer that holds messages but has not asked lately (a push worker, a stalled stream) is
 * listed too. UNACKED rows are one per lease, so counting them per consumer reads few rows.
 */
export async function queueConsumerList(db: Queryable, queue: string): Promise<QueueConsumerRow[]> {
  const { rows } = await db.query<QueueConsumerRow>(
    `WITH seen AS (SELECT consumer_id, seen_at FROM queue_poller WHERE queue_name = $1),
     held AS (SELECT consumer_id, count(*)::int AS in_flight FROM message
               WHERE queue_name = $1 AND status = 'UNACKED' AND consumer_id IS NOT NULL GROUP BY consumer_id)
     SELECT coalesce(s.consumer_id, h.consumer_id) AS consumer_id, s.seen_at AS last_seen_at, coalesce(h.in_flight, 0) AS in_flight
       FROM seen s FULL JOIN held h ON h.consumer_id = s.consumer_id
      ORDER BY s.seen_at DESC NULLS LAST, 1
      LIMIT $2`,
    [queue, CONSUMER_LIST_LIMIT],
  );
  return rows;
}

/** Whether the queue has a push endpoint (so a page asks for its details only when there are some). */
export async function queueHasPush(db: Queryable, queue: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM queue_push WHERE queue_name = $1) AS found', [queue]);
  return rows[0].found;
}
