import type pg from 'pg';
import type { Pool } from '../../../src/db/pool.js';

type QueryConfig = { name?: string };

const isStatement = (config: unknown, name: string) => typeof config === 'object' && config !== null && (config as QueryConfig).name === name;

export interface PausingPool {
  /** Hand this to the code under test in place of the pool. */
  pool: Pool;
  /** The backend that holds the pause: resolved once the named statement is about to be sent. */
  paused: Promise<number>;
}

/**
 * The real pool, except that the first time the named statement is about to be sent, the connection
 * that would send it first runs a long `pg_sleep` and the backend's pid is handed to the test. The
 * test then cancels or terminates exactly that backend: to the code under test the statement fails
 * with what PostgreSQL answered, on the connection (and in the transaction) it would have run in.
 * Later statements of that name pass through.
 */
export function pauseBefore(target: Pool, statement: string): PausingPool {
  let armed = true;
  let reportPid!: (pid: number) => void;
  const paused = new Promise<number>((resolve) => (reportPid = resolve));

  const hold = async (client: pg.PoolClient): Promise<void> => {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    reportPid(rows[0].pid);
    await client.query('SELECT pg_sleep(60)');
  };
  const take = (config: unknown) => {
    if (!armed || !isStatement(config, statement)) return false;
    armed = false;
    return true;
  };

  const wrapClient = (client: pg.PoolClient): pg.PoolClient =>
    new Proxy(client, {
      get(object, property) {
        if (property === 'query') {
          return async (config: unknown, values?: unknown[]) => {
            if (take(config)) await hold(object);
            return object.query(config as pg.QueryConfig, values);
          };
        }
        const value = Reflect.get(object, property, object);
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });

  const pool = new Proxy(target, {
    get(object, property) {
      if (property === 'connect') return async () => wrapClient(await object.connect());
      if (property === 'query') {
        return async (config: unknown, values?: unknown[]) => {
          if (!take(config)) return object.query(config as pg.QueryConfig, values);
          // pool.query() would pick any connection: take one, pause on it, and run the statement there.
          const client = await object.connect();
          try {
            await hold(client);
            const result = await client.query(config as pg.QueryConfig, values);
            client.release();
            return result;
          } catch (error) {
            client.release(error as Error);
            throw error;
          }
        };
      }
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
  return { pool, paused };
}
