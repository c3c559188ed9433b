import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import './provided.js';

/** A fresh, migrated database on the run's PostgreSQL server; returns its URL. */
export async function createTestDatabase(): Promise<string> {
  const serverUrl = inject('databaseUrl');
  const name = `mq_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  return url.toString();
}
