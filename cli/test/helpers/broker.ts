import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestBroker, type TestBroker } from '@miniqueue/api/testing';
import { runCli, type CliResult } from './cli.js';

export type { TestBroker };

/** A listening broker on its own database, and a way to run commands against it as admin. */
export async function startBroker(env: Record<string, string> = {}): Promise<TestBroker> {
  return startTestBroker({ listen: true, env });
}

/** Runs a command against `broker` with `key` (default: the admin key). */
export function as(broker: TestBroker, key: string = broker.adminKey) {
  return (...args: string[]): Promise<CliResult> => runCli([...args, '--url', broker.url, '--api-key', key]);
}

/** A private config directory for one test's saved profiles. */
export async function tempConfigDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-cli-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A local port nothing listens on, for "cannot reach the broker". */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
