import pg from 'pg';

/** Counts statements sent to PostgreSQL by any connection of this process while `work` runs. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<number> {
  const original = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    count += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}
