import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { loadConfig } from '../../src/config.js';
import { startRuntime } from '../../src/runtime.js';
import { createTestDatabase } from '../helpers/database.js';

const quiet = { info: () => undefined, error: () => undefined };
const repoFile = (name: string) => readFile(new URL(`../../../${name}`, import.meta.url), 'utf8');

describe('where the broker listens', () => {
  it('on loopback when HOST is not set: `npm start` on a laptop is not reachable from the network', async () => {
    const config = loadConfig({
      DATABASE_URL: await createTestDatabase(),
      PORT: '0',
      LOG_LEVEL: 'silent',
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: newApiKey().key,
    });
    expect(config.host).toBe('127.0.0.1');
    const runtime = await startRuntime(config, quiet);
    try {
      expect((runtime.broker.server.listener.address() as AddressInfo).address).toBe('127.0.0.1');
    } finally {
      await runtime.stop();
    }
  });

  it('on every interface in the container image and in Docker Compose, which say so themselves', async () => {
    expect(await repoFile('Dockerfile')).toMatch(/^\s+HOST=0\.0\.0\.0$/m);
    const compose = parse(await repoFile('docker-compose.yml')) as { services: Record<string, { environment?: Record<string, string> }> };
    expect(compose.services.miniqueue?.environment?.HOST).toBe('0.0.0.0');
  });
});
