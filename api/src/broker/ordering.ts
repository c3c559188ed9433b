import type { Pool } from '../db/pool.js';
import { orderingPromoteStalled, type UnblockedRow } from '../db/queries/orderingGroup.js';
import type { Advanced, RoutedRow } from '../db/queries/messageSettle.js';
import { transitionsOf, type Changes } from './changes.js';

const PROMOTE_BATCH = 500;

const announce = (changes: Changes, rows: UnblockedRow[]) =>
  changes.committed(
    transitionsOf(
      'UNBLOCKED',
      rows.map((row) => ({ queue: row.queue_name, id: row.id, availableAt: row.available_at, delayed: row.delayed })),
    ),
  );

/**
 * Dead letters routed to a dead-letter topic's queues (db/queries/messageDeath.ts): published
 * there, so announced as publishes are, topic publishes with them (what the publish counters,
 * Grafana and the backlog alert read; a publish counts its own in the Publisher).
 */
export const announceRouted = (changes: Changes, rows: RoutedRow[]) =>
  changes.committed(
    transitionsOf(
      'PUBLISHED',
      rows.map((row) => ({
        queue: row.queue_name,
        id: row.id,
        availableAt: row.available_at,
        delayed: row.delayed,
        topic: row.topic_name,
        firstCopy: row.first_copy,
      })),
    ),
  );

/**
 * After a committed statement that settled messages: wakes consumers for the ordering-key heads it
 * made claimable and, when it left a group stalled (it raced with a publish of the same key, see
 * db/queries/orderingGroup.ts), promotes that group's head with a statement of its own. The promote
 * failing only delays the head until the lease sweeper's next pass, which promotes too.
 */
export async function afterAdvance(pool: Pool, changes: Changes, advanced: Advanced): Promise<void> {
  if (advanced.unblocked.length > 0) announce(changes, advanced.unblocked);
  if (advanced.routed.length > 0) announceRouted(changes, advanced.routed);
  if (advanced.stalled.length > 0) await promoteStalled(pool, changes).catch(() => undefined);
}

/** Promotes the heads of all stalled groups, in batches; how many were promoted. */
export async function promoteStalled(pool: Pool, changes: Changes): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await orderingPromoteStalled(pool, PROMOTE_BATCH);
    total += rows.length;
    announce(changes, rows);
    if (rows.length < PROMOTE_BATCH) return total;
  }
}
