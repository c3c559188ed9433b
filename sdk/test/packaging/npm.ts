import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));

export interface Result {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs a command to its end; fails with its output when it exits non-zero. */
export function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    const result: Result = { stdout: '', stderr: '', status: null };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (result.stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (result.stderr += chunk));
    child.once('error', reject);
    child.once('close', (status) => {
      result.status = status;
      if (status === 0) resolve(result);
      else reject(new Error(`${command} ${args.join(' ')} (in ${options.cwd}) exited ${status}\n${result.stdout}\n${result.stderr}`));
    });
  });
}

/** npm, from the registry's cache when it can: these installs only need the packages' own dependencies. */
export const npm = (args: string[], cwd: string) => run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd });

/**
 * The install route the READMEs document, which works from a clone today: one command packs both
 * packages, then one installs them anywhere (the CLI globally, or the SDK into a project).
 * `/path/to/miniqueue` stands for the clone. Every install line of every README is one of these.
 */
export const CLONE = '/path/to/miniqueue';
export const INSTALL_ROUTE = {
  pack: 'npm run pack:all',
  cli: `npm install -g ${CLONE}/dist/miniqueue-sdk.tgz ${CLONE}/dist/miniqueue-cli.tgz`,
  sdk: `npm install ${CLONE}/dist/miniqueue-sdk.tgz`,
} as const;

/** A documented command, as written, with the clone's path for its placeholder and `extra` arguments. */
export function runDocumented(line: string, cwd: string, extra: string[] = []): Promise<Result> {
  const [command, ...args] = line.replaceAll(CLONE, REPO.replace(/\/$/, '')).split(' ');
  return run(command!, [...args, ...extra, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd });
}

/** `npm run pack:all` in the clone, as the READMEs say: both tarballs, built as they are published. */
export async function packAll(): Promise<{ sdk: string; cli: string }> {
  await runDocumented(INSTALL_ROUTE.pack, REPO);
  return { sdk: path.join(REPO, 'dist', 'miniqueue-sdk.tgz'), cli: path.join(REPO, 'dist', 'miniqueue-cli.tgz') };
}
