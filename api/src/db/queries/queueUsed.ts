/**
 * What the queues `where` selects (on queue_counter as k) hold now, from their counters (exact at
 * each commit, migration 0013 and 0015): `n` messages PENDING, BLOCKED or UNACKED, `b` payload bytes.
 */
export const USED = (where: string) =>
  `SELECT k.queue_name, sum(k.pending + k.unacked) AS n, sum(k.bytes) AS b FROM queue_counter k WHERE ${where} GROUP BY k.queue_name`;
