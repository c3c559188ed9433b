import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startBroker, type TestBroker } from './helpers/broker.js';
import { json, runCli } from './helpers/cli.js';

let broker: TestBroker;

beforeAll(async () => {
  broker = await startBroker();
});
afterAll(async () => {
  await broker?.stop();
});

describe('health', () => {
  it('needs no key, and says the broker is up with its version and commit', async () => {
    const result = await runCli(['health', '--url', broker.url]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^status\s+UP$/m);
    expect(result.stdout).toMatch(/^commit\s+\S+$/m);
    expect(json(await runCli(['health', '--url', broker.url, '--json']))).toMatchObject({ url: broker.url, status: 'UP', name: expect.any(String) });
  });

  it('an unreachable broker is exit 1', async () => {
    const result = await runCli(['health', '--url', `http://127.0.0.1:${await closedPort()}`]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('Cannot reach the broker');
  });
});
