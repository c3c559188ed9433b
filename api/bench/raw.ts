import pg from 'pg';
import { runLoad, type LoadResult } from './http.js';
import { PAYLOAD } from './scenarios/topology.js';

/**
 * The ceiling: what this PostgreSQL, on this disk, commits per second when nothing but a
 * single-row INSERT stands in the way. Every MiniQueue figure is read as a share of it. The
 * second variant adds one pg_notify to the same transaction (one statement, so the round trips
 * are the same) to show what NOTIFY's global commit lock costs on its own.
 */
export type RawVariant = 'insert' | 'insert+notify';

const STATEMENTS: Record<RawVariant, string> = {
  insert: 'INSERT INTO bench_raw.message (payload) VALUES ($1)',
  'insert+notify': `WITH stored AS (INSERT INTO bench_raw.message (payload) VALUES ($1) RETURNING id)
                    SELECT pg_notify('bench_raw', id::text) FROM stored`,
};

export async function prepareRaw(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('CREATE SCHEMA IF NOT EXISTS bench_raw');
    await client.query('CREATE TABLE IF NOT EXISTS bench_raw.message (id bigserial PRIMARY KEY, payload text NOT NULL)');
  } finally {
    await client.end();
  }
}

/** `connections` clients, each committing one INSERT at a time (autocommit), for `seconds`. */
export async function rawCommits(url: string, variant: RawVariant, connections: number, seconds: number): Promise<LoadResult> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: url, application_name: 'bench-raw' });
      await client.connect();
      return client;
    }),
  );
  try {
    const text = STATEMENTS[variant];
    // As many loops as connections: each step takes an idle connection and gives it back, so
    // every connection always has exactly one commit in flight.
    const idle = [...clients];
    return await runLoad({ concurrency: connections, maxSteps: Number.MAX_SAFE_INTEGER, maxSeconds: seconds }, async () => {
      const client = idle.pop()!;
      try {
        await client.query({ name: `bench_raw_${variant}`, text, values: [PAYLOAD] });
      } finally {
        idle.push(client);
      }
      return { messages: 1, requests: 1 };
    });
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
