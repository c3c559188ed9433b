import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../src/db/embedded.js';

/**
 * A broker under test: the compiled JavaScript (api/dist/start.js) in a process of its own, as it
 * runs in production, so the load generator's CPU never counts as the broker's and the broker's
 * event loop never waits for the load generator's. It is driven only through its public HTTP API.
 */
export interface Broker {
  name: string;
  url: string;
  pid: number;
  /** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
  cpuSeconds(): number;
  /** Peak resident set size so far in bytes (VmHWM), or null off Linux. */
  peakRss(): number | null;
  /** SIGTERM, then wait for the exit (a --cpu-prof profile is written then). */
  stop(): Promise<void>;
}

export interface BrokerOptions {
  name: string;
  databaseUrl: string;
  adminKey: string;
  /** Settings of this scenario, e.g. MINIQUEUE_ACKED_RETENTION_HOURS (unknown ones are ignored). */
  env?: Record<string, string>;
  /** Start with `node --cpu-prof --cpu-prof-dir=<dir>`. */
  cpuProfDir?: string;
  log: (line: string) => void;
}

export const API_DIR = path.resolve(import.meta.dirname, '..');
export const REPO_ROOT = path.resolve(API_DIR, '..');
const START_SCRIPT = path.join(API_DIR, 'dist', 'start.js');

/** A key the broker accepts as MINIQUEUE_BOOTSTRAP_ADMIN_KEY: mq_ + 43 base64url characters. */
export function newAdminKey(): string {
  return `mq_${randomBytes(32).toString('base64url')}`;
}

/** tsc -> api/dist, so the broker runs the code of this checkout. */
export function buildBroker(log: (line: string) => void): void {
  log('building the broker (npm run build -w @miniqueue/api)');
  execFileSync('npm', ['run', 'build', '-w', '@miniqueue/api'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

let clockTicks: number | undefined;
export function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** utime + stime of a process, in seconds (fields 14 and 15 of /proc/<pid>/stat). */
export function processCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces; count fields from after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicksPerSecond();
  } catch {
    return Number.NaN;
  }
}

export function processPeakRss(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

async function waitHealthy(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the broker exited with ${child.exitCode} while starting:\n${output()}`);
    try {
      const response = await fetch(`${url}/actuator/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the broker did not become healthy within ${timeoutMs} ms:\n${output()}`);
}

export async function startBroker(options: BrokerOptions): Promise<Broker> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const nodeArgs: string[] = ['--enable-source-maps'];
  if (options.cpuProfDir) {
    await mkdir(options.cpuProfDir, { recursive: true });
    // One file per broker process, named for the run's phase, so before/after profiles pair up.
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${path.resolve(options.cpuProfDir)}`, `--cpu-prof-name=${options.name}-${stamp}.cpuprofile`);
  }
  const child = spawn(process.execPath, [...nodeArgs, START_SCRIPT], {
    cwd: API_DIR,
    env: {
      // PATH and the like; never the caller's broker settings, which would change what is measured.
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(MINIQUEUE_|DATABASE_URL$|PORT$|HOST$|LOG_LEVEL$)/.test(name))),
      DATABASE_URL: options.databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: options.adminKey,
      LOG_LEVEL: 'warn',
      // One key doing thousands of requests a second is the point here, not abuse.
      MINIQUEUE_RATE_LIMIT_ENABLED: 'false',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep the last lines the broker printed, to explain a failure; the pipes must be drained anyway.
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) tail.push(line);
    if (tail.length > 40) tail.splice(0, tail.length - 40);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => tail.join('\n');
  try {
    await waitHealthy(url, child, output, 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const pid = child.pid!;
  options.log(`broker ${options.name} pid ${pid} on ${url}${options.env ? ` ${JSON.stringify(options.env)}` : ''}`);
  return {
    name: options.name,
    url,
    pid,
    cpuSeconds: () => processCpuSeconds(pid),
    peakRss: () => processPeakRss(pid),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) options.log(`broker ${options.name} exited with ${code}:\n${output()}`);
    },
  };
}
