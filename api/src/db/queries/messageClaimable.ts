import type { Queryable } from '../pool.js';
import { NOT_EXPIRED } from './messageRow.js';

/**
 * How many messages are claimable now in each of these queues, counting at most `cap` per queue
 * (so a long backlog costs no more than the waiters it could feed).
 */
export async function messageClaimableCounts(db: Queryable, queues: { name: string; cap: number }[]): Promise<Map<string, number>> {
  const { rows } = await db.query<{ queue: string; n: number }>(
    `SELECT w.queue, (SELECT count(*) FROM (
              SELECT 1 FROM message m
               WHERE m.queue_name = w.queue AND m.status = 'PENDING' AND m.available_at <= now() AND ${NOT_EXPIRED()}
               LIMIT w.cap) c)::int AS n
       FROM unnest($1::text[], $2::int[]) AS w (queue, cap)`,
    [queues.map((q) => q.name), queues.map((q) => q.cap)],
  );
  return new Map(rows.map((row) => [row.queue, row.n]));
}
