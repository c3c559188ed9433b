/**
 * A clone only its owner can enter (under /root, mode 0700): as root, PostgreSQL runs as
 * `postgres`, who can reach neither the binaries in node_modules nor the data directory there.
 * Run as another user, the same steps simply work from the user's own private directory.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { clusterAccount } from '../../src/db/postgres/account.js';
import { binariesFor, installedBinaries } from '../../src/db/postgres/binaries.js';

let privateDir: string;
beforeAll(async () => {
  privateDir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-private-'));
  expect((await stat(privateDir)).mode & 0o777).toBe(0o700);
});
afterAll(() => rm(privateDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));

const account = clusterAccount();
const asClusterUser = (file: string) => spawnSync(file, ['--version'], { ...account.ids, encoding: 'utf8' });

async function count(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM kept');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL in a directory only its owner can enter', () => {
  it('runs the binaries from there, through a copy the cluster user can reach', async () => {
    const installed = path.join(privateDir, 'native');
    await cp(installedBinaries(), installed, { recursive: true, verbatimSymlinks: true });
    if (account.ids) expect(asClusterUser(path.join(installed, 'bin', 'postgres')).error?.message).toMatch(/EACCES/);
    const binaries = await binariesFor(account, installed);
    try {
      const version = asClusterUser(binaries.postgres);
      expect(version.stdout).toMatch(/^postgres \(PostgreSQL\) 17\./);
      expect(asClusterUser(binaries.initdb).status).toBe(0);
    } finally {
      await binaries.release();
    }
  });

  it('keeps its data across restarts when the data directory is there', async () => {
    const dataDir = path.join(privateDir, 'data');
    const first = await startEmbeddedDatabase(dataDir);
    try {
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (1)');
      await client.end();
    } finally {
      await first.stop();
    }
    const second = await startEmbeddedDatabase(dataDir);
    try {
      expect(second.clusterDir).toBe(first.clusterDir);
      expect(await count(second.url)).toBe(1);
      // The cluster's own user owns its files, wherever they had to go.
      const owner = execFileSync('stat', ['-c', '%u', second.clusterDir], { encoding: 'utf8' }).trim();
      expect(Number(owner)).toBe(account.ids?.uid ?? process.getuid!());
    } finally {
      await second.stop();
    }
    // Removing the data directory starts afresh, even where the cluster lived elsewhere.
    await rm(dataDir, { recursive: true });
    const third = await startEmbeddedDatabase(dataDir);
    try {
      expect(third.clusterDir).toBe(first.clusterDir);
      await expect(count(third.url)).rejects.toThrow(/relation "kept" does not exist/);
    } finally {
      await third.stop();
      if (!third.clusterDir.startsWith(privateDir)) await rm(third.clusterDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  });
});
