import pg from 'pg';

/** A statement as a connection sent it: its text and its parameters. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/** Statements sent to PostgreSQL by any connection of this process while `work` ran, with their parameters. */
export async function sentDuring(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const original = pg.Client.prototype.query;
  const seen: SentStatement[] = [];
  pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    const text = typeof first === 'string' ? first : String(first?.text ?? '');
    const values = typeof first === 'string' ? args[1] : first?.values;
    seen.push({ text, values: Array.isArray(values) ? values : [] });
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

/** Statements sent to PostgreSQL by any connection of this process while `work` ran, by text. */
export async function statementsDuring(work: () => Promise<unknown>): Promise<string[]> {
  return (await sentDuring(work)).map((statement) => statement.text);
}

/**
 * Whether a statement's parameters name this queue: what a request on the queue sends, as
 * opposed to the periodic work of every broker of the process (lease expiry, presence, rates).
 */
export const namesQueue = (queue: string) => (statement: SentStatement) => JSON.stringify(statement.values).includes(JSON.stringify(queue).slice(1, -1));

/** NOTIFYs to other instances: sent outside the message transactions, counted apart. */
export const isNotification = (sql: string) => sql.includes('pg_notify');

/** The rate recorder's writes of the last bucket's counts: every 5 s per instance, whatever requests run. */
export const isRateWrite = (sql: string) => /\b(queue_rate|topic_rate|rate_sample)(_minute)?\b/.test(sql);
