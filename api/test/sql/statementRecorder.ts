import type { Queryable } from '../../src/db/pool.js';

/** A named statement as the broker sends it: pg prepares it once per connection under `name`. */
export interface NamedStatement {
  name: string;
  text: string;
}

/**
 * A Queryable that answers every statement with no rows and keeps the named ones, so the query
 * functions can be called without a database to see the exact text each one prepares.
 */
export class StatementRecorder {
  readonly statements = new Map<string, string>();
  /** Names sent with more than one text (pg refuses that on a connection that prepared the first). */
  readonly conflicts: string[] = [];

  readonly db = {
    query: async (config: unknown) => {
      if (typeof config === 'object' && config !== null && 'name' in config && 'text' in config) this.keep(config as NamedStatement);
      return { rows: [], rowCount: 0 };
    },
  } as unknown as Queryable;

  /** Runs `call` against the recorder; what it does with the empty answer does not matter here. */
  async record(call: (db: Queryable) => Promise<unknown>): Promise<void> {
    await call(this.db).catch(() => undefined);
  }

  private keep({ name, text }: NamedStatement): void {
    const earlier = this.statements.get(name);
    if (earlier !== undefined && earlier !== text) this.conflicts.push(name);
    else this.statements.set(name, text);
  }
}
