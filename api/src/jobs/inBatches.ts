/**
 * Runs `deleteBatch(limit)` until it removes fewer than `limit` rows: a backlog goes in bounded
 * statements (short locks, short transactions), however large it grew. Returns the total.
 */
export async function deleteInBatches(deleteBatch: (limit: number) => Promise<number>, limit: number): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(limit);
    total += deleted;
    if (deleted < limit) return total;
  }
}
