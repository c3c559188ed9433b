import { execFileSync, spawnSync } from 'node:child_process';

/** The user PostgreSQL runs as: itself when we are not root, else the unprivileged `postgres`. */
export interface ClusterAccount {
  /** Set only when we are root and the cluster runs as another user. */
  ids?: { uid: number; gid: number };
}

const NAME = 'postgres';

function idOf(flag: '-u' | '-g'): number {
  return Number(execFileSync('id', [flag, NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
}

/**
 * PostgreSQL refuses to run as root. As root, it runs as `postgres`, made here when missing
 * (a system account with no login shell, as the distributions' packages make it).
 */
export function clusterAccount(): ClusterAccount {
  if (process.getuid?.() !== 0) return {};
  try {
    return { ids: { uid: idOf('-u'), gid: idOf('-g') } };
  } catch {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', NAME], { stdio: 'ignore' });
    return { ids: { uid: idOf('-u'), gid: idOf('-g') } };
  }
}

/**
 * Whether the account can reach `target` (search every directory on the way, and read it).
 * Asked of the kernel by running `test` as that user, so modes, ACLs and mounts all count.
 */
export function canReach(account: ClusterAccount, target: string, access: '-r' | '-x' = '-r'): boolean {
  if (!account.ids) return true;
  const result = spawnSync('/bin/sh', ['-c', `test ${access} "$1"`, 'sh', target], { ...account.ids, stdio: 'ignore' });
  return result.status === 0;
}
