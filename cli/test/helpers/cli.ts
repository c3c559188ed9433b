import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { run } from '@oclif/core';
import { captureOutput } from '@oclif/test';
import { oclifOptions } from '../../bin/oclif-options.js';

export const CLI_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(CLI_ROOT, 'bin', 'run.js');

export interface CliResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Every environment variable the CLI reads, cleared so the developer's own settings never leak in. */
const CLI_ENV = ['MINIQUEUE_URL', 'MINIQUEUE_API_KEY', 'MINIQUEUE_PROFILE', 'MINIQUEUE_CONFIG_DIR', 'XDG_CONFIG_HOME'];

/** Runs a command in this process (fast), with these environment variables for its duration. */
export async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const saved = Object.fromEntries(CLI_ENV.concat(Object.keys(env)).map((name) => [name, process.env[name]]));
  for (const name of CLI_ENV) delete process.env[name];
  Object.assign(process.env, env);
  try {
    const options = await oclifOptions(); // the commands in src/, as bin/run.js runs them in a checkout
    const { error, stdout, stderr } = await captureOutput(() => run(args, options));
    if (!error) return { stdout, stderr, exitCode: Number(process.exitCode ?? 0) };
    const { oclif, code } = error as { oclif?: { exit?: number }; code?: string };
    if (!oclif) throw error; // a crash, not a CLI failure
    // Outside the tests, oclif's handler prints its own errors (bad usage); our commands print theirs and exit.
    const printed = code === 'EEXIT' ? '' : `${error.message}\n`;
    return { stdout, stderr: stderr + printed, exitCode: oclif.exit ?? 1 };
  } finally {
    // oclif sets process.exitCode on failure; it must not fail the test run itself.
    process.exitCode = undefined;
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

const CHILD_LIFETIME_MS = 60_000;
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export interface SpawnOptions {
  env?: Record<string, string>;
  input?: string;
}

/** Runs the real executable, as a user would, for what needs a process of its own (stdin, signals). */
export function spawnCli(args: string[], options: SpawnOptions = {}): Promise<CliResult> {
  const child = startCli(args, options);
  return child.done;
}

export interface RunningCli {
  pid: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once `pattern` has appeared in the output stream named. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<void>;
  signal(name: NodeJS.Signals): void;
  done: Promise<CliResult>;
}

export function startCli(args: string[], options: SpawnOptions = {}): RunningCli {
  const env: NodeJS.ProcessEnv = { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true', NODE_ENV: 'production' };
  for (const name of CLI_ENV) delete env[name];
  Object.assign(env, options.env);
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
  child.stdin.end(options.input ?? '');
  // A test that fails while the command runs (a tail, a follow) must not leave it running.
  children.add(child);
  const reaper = setTimeout(() => child.kill('SIGKILL'), CHILD_LIFETIME_MS).unref();
  const done = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      clearTimeout(reaper);
      children.delete(child);
      resolve({ ...output, exitCode: code ?? (signal ? 128 : 1) });
    });
  });
  return {
    pid: child.pid!,
    stdout: () => output.stdout,
    stderr: () => output.stderr,
    waitFor: async (stream, pattern, timeoutMs = 20_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output[stream])) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern} on ${stream}; got:\n${output[stream]}\nstderr:\n${output.stderr}`);
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before ${pattern}; stderr:\n${output.stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    signal: (name) => child.kill(name),
    done,
  };
}

/** Parses a command's --json output. */
export function json<T = any>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`not JSON (exit ${result.exitCode}):\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}
