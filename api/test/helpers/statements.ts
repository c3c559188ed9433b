import pg from 'pg';

/** Statements sent to PostgreSQL by any connection of this process while `work` ran, by text. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  const original = pg.Client.prototype.query;
  const seen: string[] = [];
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    seen.push(typeof first === 'string' ? first : String((first as { text?: string } | undefined)?.text ?? ''));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await work();
    // Work a request left for after its answer (notifications to other instances) belongs to it too.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    pg.Client.prototype.query = original;
  }
  return seen;
}

/** NOTIFYs to other instances: sent outside the message transactions, counted apart. */
export const isNotification = (sql: string) => sql.includes('pg_notify');

/** The rate recorder's writes of the last bucket's counts: every 5 s per instance, whatever requests run. */
export const isRateWrite = (sql: string) => /\b(queue_rate|topic_rate|rate_sample)(_minute)?\b/.test(sql);
