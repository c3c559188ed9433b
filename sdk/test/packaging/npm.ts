import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
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
export const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd });

const versionOf = (workspace: string): string =>
  JSON.parse(readFileSync(path.join(REPO, workspace, 'package.json'), 'utf8')).version;

/**
 * `npm pack` of the SDK and the CLI into `dir`, as they would be published: each package's
 * `prepack` builds it first.
 */
export async function packAll(dir: string): Promise<{ sdk: string; cli: string }> {
  await npm(['pack', '--pack-destination', dir], path.join(REPO, 'sdk'));
  await npm(['pack', '--pack-destination', dir], path.join(REPO, 'cli'));
  return {
    sdk: path.join(dir, `miniqueue-sdk-${versionOf('sdk')}.tgz`),
    cli: path.join(dir, `miniqueue-cli-${versionOf('cli')}.tgz`),
  };
}
