import { chmod, lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnBroker } from '../resilience/support/brokerProcess.js';
import { saveAdminKey } from '../../src/adminKeyFile.js';

const KEY = `mq_${'k'.repeat(43)}`;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-key-'));
  // As root, the embedded PostgreSQL runs as another user, who must reach its data directory.
  await chmod(dir, 0o755);
});
// An embedded PostgreSQL may still be finishing its last WAL file as its stop resolves: retry the removal.
afterEach(() => rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe('the first-start admin key file', () => {
  it('is 0600 even when a world-readable admin-key was there before (a real first start)', async () => {
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    const file = path.join(dataDir, 'admin-key');
    await writeFile(file, 'left over\n', { mode: 0o644 });
    await chmod(file, 0o644);
    const broker = await spawnBroker({ MINIQUEUE_DATA_DIR: dataDir });
    try {
      expect(await modeOf(file)).toBe(0o600);
      expect(await readFile(file, 'utf8')).toMatch(/^mq_[A-Za-z0-9_-]{43}\n$/);
    } finally {
      await broker.kill();
    }
  });

  it('is written 0600 when it is new, and replaces what was there', async () => {
    const file = path.join(dir, 'admin-key');
    await saveAdminKey(file, KEY);
    expect(await modeOf(file)).toBe(0o600);
    await writeFile(file, 'other', { mode: 0o666 });
    await chmod(file, 0o666);
    await saveAdminKey(file, KEY);
    expect(await modeOf(file)).toBe(0o600);
    expect(await readFile(file, 'utf8')).toBe(`${KEY}\n`);
  });

  it('refuses to follow a symbolic link, with an error that names the file', async () => {
    const target = path.join(dir, 'elsewhere');
    await writeFile(target, 'not yours', { mode: 0o644 });
    const file = path.join(dir, 'admin-key');
    await symlink(target, file);
    await expect(saveAdminKey(file, KEY)).rejects.toThrow(new RegExp(`${file}.*symbolic link`));
    expect(await readFile(target, 'utf8')).toBe('not yours');
    expect((await lstat(file)).isSymbolicLink()).toBe(true);
  });
});

describe('when the key file cannot be written safely', () => {
  it('the broker still starts, has shown the key, and says clearly that it did not save it', async () => {
    const dataDir = path.join(dir, 'data');
    await mkdir(dataDir);
    await writeFile(path.join(dir, 'elsewhere'), 'not yours');
    await symlink(path.join(dir, 'elsewhere'), path.join(dataDir, 'admin-key'));
    const broker = await spawnBroker({ MINIQUEUE_DATA_DIR: dataDir });
    try {
      const output = broker.output();
      expect(output).toMatch(/^ {2}mq_[A-Za-z0-9_-]{43}$/m);
      expect(output).toContain(`the admin key was NOT saved: Refusing to write the admin key to ${path.join(dataDir, 'admin-key')}: it is a symbolic link`);
      expect(await readFile(path.join(dir, 'elsewhere'), 'utf8')).toBe('not yours');
      expect((await fetch(`${broker.url}/actuator/health`)).status).toBe(200);
    } finally {
      await broker.kill();
    }
  });
});
