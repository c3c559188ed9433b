import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ClusterAccount } from './account.js';
import type { Binaries } from './binaries.js';

export interface ClusterOptions {
  binaries: Binaries;
  account: ClusterAccount;
  databaseDir: string;
  log: (line: string) => void;
}

/**
 * Start-up is recognised by a message on stderr, so its language is fixed: the first of these
 * locales the system has, else C.
 */
let locale: string | undefined;
function messagesLocale(): string {
  if (locale) return locale;
  try {
    const available = new Set(execSync('locale -a', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n'));
    locale = ['en_US.UTF-8', 'C.UTF-8', 'en_US.utf8'].find((name) => available.has(name)) ?? 'C';
  } catch {
    locale = 'C';
  }
  return locale;
}

function run(options: ClusterOptions, command: string, args: string[]): ChildProcess {
  return spawn(command, args, {
    ...options.account.ids,
    env: { ...process.env, LC_MESSAGES: messagesLocale() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** initdb into an empty `databaseDir`, owned by the cluster's user, with a password for `user`. */
export async function initialise(options: ClusterOptions, user: string, password: string): Promise<void> {
  // initdb reads the password from a file; only the cluster's user may read it, and only briefly.
  const secretDir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-initdb-'));
  const passwordFile = path.join(secretDir, 'password');
  try {
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    const { ids } = options.account;
    if (ids) await Promise.all([secretDir, passwordFile].map((file) => chown(file, ids.uid, ids.gid)));
    const initdb = run(options, options.binaries.initdb, [
      `--pgdata=${options.databaseDir}`,
      '--auth=scram-sha-256',
      `--username=${user}`,
      `--pwfile=${passwordFile}`,
      `--lc-messages=${messagesLocale()}`,
    ]);
    let output = '';
    initdb.stdout?.on('data', (chunk: Buffer) => options.log(chunk.toString()));
    initdb.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve, reject) => {
      initdb.once('error', reject);
      initdb.once('close', resolve);
    });
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.trim()}`);
  } finally {
    await rm(secretDir, { recursive: true, force: true });
  }
}

export interface RunningPostgres {
  stop(): Promise<void>;
}

/** Starts `postgres` on the cluster; resolves once it accepts connections. */
export async function startPostgres(options: ClusterOptions, port: number, flags: string[]): Promise<RunningPostgres> {
  const child = run(options, options.binaries.postgres, ['-D', options.databaseDir, '-p', String(port), ...flags]);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.on('data', (chunk: Buffer) => options.log(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      options.log(text);
      if (output.includes('database system is ready to accept connections')) resolve();
    });
    void exited.then(() => reject(new Error(`postgres exited while starting: ${output.trim()}`)));
  });
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT: PostgreSQL's fast shutdown (roll back open transactions, checkpoint, exit).
      child.kill('SIGINT');
      await exited;
    },
  };
}
