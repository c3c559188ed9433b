// Where the admin key is, said on every start: the broker prints a new key once, on the start
// that makes it, and a restart says nothing about it. This reads the same settings the broker
// does (DATABASE_URL, MINIQUEUE_DATA_DIR, MINIQUEUE_BOOTSTRAP_ADMIN_KEY; see api/src/config.ts
// and api/src/start.ts, which saves the key as <data dir>/admin-key) and never prints a key.
import { existsSync } from 'node:fs';
import path from 'node:path';

const DEFAULT_DATA_DIR = './.miniqueue';

export function adminKeyNotice(env = process.env, cwd = process.cwd()) {
  if (env.MINIQUEUE_BOOTSTRAP_ADMIN_KEY) {
    return 'Admin key: the client bootstrap-admin holds the key in MINIQUEUE_BOOTSTRAP_ADMIN_KEY.';
  }
  if (env.DATABASE_URL) {
    return 'Admin key: printed once, by the start that created it on this database (with DATABASE_URL it is not kept on disk). Lost? Set MINIQUEUE_BOOTSTRAP_ADMIN_KEY, or make another with `miniqueue clients:create NAME --scope admin`.';
  }
  const file = path.resolve(cwd, env.MINIQUEUE_DATA_DIR || DEFAULT_DATA_DIR, 'admin-key');
  if (existsSync(file)) return `Admin key: kept in ${file} (readable by its owner only; \`cat\` it to sign in).`;
  return `Admin key: none yet; this start makes one, prints it once and keeps it in ${file}.`;
}
