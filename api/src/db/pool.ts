import pg from 'pg';

export type Pool = pg.Pool;
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

// int8 (count(*), sequences) as JS numbers: our counts stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export function createPool(connectionString: string, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'miniqueue',
  });
  // An idle client's connection can drop (database restart); the pool replaces it. Without a
  // listener the 'error' event would crash the process.
  pool.on('error', () => undefined);
  return pool;
}

/** Runs `work` in one transaction on one connection; rolls back on any error. */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
