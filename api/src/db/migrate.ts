import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { Umzug, type UmzugStorage } from 'umzug';
import { newClient } from './targetedClient.js';
import { advisoryLockRelease, advisoryLockTake } from './queries/advisoryLock.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

function tableStorage(client: pg.ClientBase): UmzugStorage {
  const ensure = () =>
    client.query(`CREATE TABLE IF NOT EXISTS schema_migration (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
  return {
    async executed() {
      await ensure();
      const { rows } = await client.query<{ name: string }>('SELECT name FROM schema_migration ORDER BY name');
      return rows.map((row) => row.name);
    },
    async logMigration({ name }) {
      await client.query('INSERT INTO schema_migration (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
    },
    async unlogMigration({ name }) {
      await client.query('DELETE FROM schema_migration WHERE name = $1', [name]);
    },
  };
}

/**
 * Applies every pending SQL migration, each in its own transaction. A session-level advisory
 * lock makes instances that start together take turns: the first migrates, the rest find
 * nothing left to do.
 */
export async function migrate(connectionString: string, options: { to?: string } = {}): Promise<string[]> {
  const client = newClient({ connectionString, application_name: 'miniqueue-migrate' });
  // If the connection dies (PostgreSQL restarts, the backend is terminated), pg emits 'error' on
  // the client, which without a listener would end the process; the statement in progress, or the
  // next one, fails instead, and so does migrate().
  client.on('error', () => undefined);
  await client.connect();
  try {
    await advisoryLockTake(client, 'migrations');
    const files = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
    const umzug = new Umzug({
      migrations: files.map((file) => ({
        name: file,
        up: async () => {
          const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
          await client.query('BEGIN');
          try {
            await client.query(sql);
            // Recorded in the same transaction, so a crash can never leave a migration applied but unrecorded.
            await client.query('INSERT INTO schema_migration (name) VALUES ($1)', [file]);
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          }
        },
      })),
      storage: tableStorage(client),
      logger: undefined,
    });
    // `to` (a file name) stops there: tests build a database as an older version left it.
    const applied = await umzug.up(options.to ? { to: options.to } : {});
    return applied.map((migration) => migration.name);
  } finally {
    await advisoryLockRelease(client, 'migrations').catch(() => undefined);
    await client.end();
  }
}
