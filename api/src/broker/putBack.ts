import type { Pool } from '../db/pool.js';
import type { HeldMessage } from '../db/queries/messageClaim.js';
import { messageRelease } from '../db/queries/messageRelease.js';
import { transitionsOf, type Changes } from './changes.js';

/** Messages of one holder, each as its claim returned it (its id and retry count). */
export const heldOf = (rows: { id: string; retry_count: number }[]): HeldMessage[] => rows.map((row) => ({ id: row.id, retryCount: row.retry_count }));

/**
 * Gives messages back that their holder claimed and cannot use (its HTTP client went away, a long
 * poll's requester left, the pusher stops, a stream ended): PENDING again, retry count unchanged,
 * only what the holder still holds from that claim. After the commit, RELEASED goes on the change
 * stream like every other transition: consumers waiting on the queue, here and on the other
 * instances, are woken at once, and the rates and metrics take the claim's delivery back. Every path
 * that puts a claim back comes here; none runs the statement itself (test/unit/importGraph.test.ts).
 * Answers how many went back.
 */
export async function putBack(deps: { pool: Pool; changes: Changes }, held: HeldMessage[], holder: string): Promise<number> {
  if (held.length === 0) return 0;
  const rows = await messageRelease(deps.pool, held, holder);
  deps.changes.committed(
    transitionsOf(
      'RELEASED',
      rows.map((row) => ({ queue: row.queue_name, id: row.id, availableAt: row.available_at, delayed: row.delayed, claimedAt: row.claimed_at })),
    ),
  );
  return rows.length;
}
