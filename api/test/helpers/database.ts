import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import './provided.js';

/** A fresh, empty database on the run's PostgreSQL server (not migrated); returns its URL. */
export async function createEmptyDatabase(prefix = 'mq_test'): Promise<string> {
  const serverUrl = inject('databaseUrl');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, migrated database on the run's PostgreSQL server; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const url = await createEmptyDatabase();
  await migrate(url);
  return url;
}
