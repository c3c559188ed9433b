import type pg from 'pg';
import type { Queryable } from '../src/db/pool.js';

/** Runs each statement twice: under EXPLAIN (ANALYZE, BUFFERS), keeping the plan, then for its rows. */
export function explaining(client: pg.Client, plans: string[][]): Queryable {
  const query = async (config: string | pg.QueryConfig, values?: unknown[]) => {
    const text = typeof config === 'string' ? config : config.text;
    const params = typeof config === 'string' ? values : (config.values ?? values);
    const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    plans.push(plan.rows.map((row) => row['QUERY PLAN'] as string));
    return client.query(text, params);
  };
  return { query } as unknown as Queryable;
}

export const summary = (plan: string[]) =>
  [plan.find((line) => /^\s*Buffers:/.test(line))?.trim(), plan.find((line) => line.startsWith('Execution Time'))].filter(Boolean).join('; ');
