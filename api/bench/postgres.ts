import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedDatabase } from '../src/db/embedded.js';

/**
 * The one PostgreSQL server of the run. Every part (each broker phase, the raw ceiling, pg-boss)
 * gets its own database on it, so they share the server, its WAL, its disk and its settings,
 * but one phase's leftovers (a million acked rows) cannot slow another's "empty" baseline.
 */
export interface BenchServer {
  /** Connection string of the server's maintenance database. */
  url: string;
  embedded: boolean;
  facts: ServerFacts;
  /** Makes a fresh database on the server and returns its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

export interface ServerFacts {
  version: string;
  settings: Record<string, string>;
}

/** What a reader needs to judge the figures: durability (fsync, synchronous_commit) and memory. */
const SETTINGS = ['fsync', 'synchronous_commit', 'shared_buffers', 'wal_level', 'max_wal_size', 'checkpoint_timeout', 'max_connections'];

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function readFacts(url: string): Promise<ServerFacts> {
  return withClient(url, async (client) => {
    const version = (await client.query<{ v: string }>('SELECT version() AS v')).rows[0].v;
    const { rows } = await client.query<{ name: string; setting: string }>(
      'SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name = ANY($1) ORDER BY name',
      [SETTINGS],
    );
    return { version, settings: Object.fromEntries(rows.map((row) => [row.name, row.setting])) };
  });
}

/** BENCH_DATABASE_URL if given (it needs CREATEDB), else embedded PostgreSQL in a fresh temp dir. */
export async function startServer(givenUrl: string | undefined, log: (line: string) => void): Promise<BenchServer> {
  let url: string;
  let stop: () => Promise<void>;
  if (givenUrl) {
    url = givenUrl;
    stop = async () => undefined;
  } else {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-bench-'));
    log(`starting embedded PostgreSQL in ${dir}`);
    const database = await startEmbeddedDatabase(dir);
    url = database.url;
    stop = async () => {
      await database.stop();
      await rm(dir, { recursive: true, force: true });
    };
  }
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const created: string[] = [];
  return {
    url,
    embedded: !givenUrl,
    facts: await readFacts(url),
    async createDatabase(name: string) {
      const full = `bench_${name}_${suffix}`;
      await withClient(url, (client) => client.query(`CREATE DATABASE ${full}`));
      created.push(full);
      return databaseUrl(url, full);
    },
    async stop() {
      // On a server we were given, leave nothing behind; an embedded one is deleted whole.
      if (givenUrl) {
        for (const name of created) {
          await withClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch((error) =>
            log(`could not drop ${name}: ${String(error)}`),
          );
        }
      }
      await stop();
    },
  };
}

/**
 * A checkpoint before each measurement, so that no workload pays for the previous one's dirty
 * pages (a checkpoint started by a million-row seed would otherwise land in the next figure).
 */
export async function checkpoint(url: string): Promise<boolean> {
  try {
    await withClient(url, (client) => client.query('CHECKPOINT'));
    return true;
  } catch {
    return false; // a role without pg_checkpoint on a server we were given: measure anyway
  }
}
