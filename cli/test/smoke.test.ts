import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Request, ResponseToolkit } from '@hapi/hapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_NAMES } from '../src/lib/smoke/names.js';
import { as, startBroker, type TestBroker } from './helpers/broker.js';
import { CLI_ROOT, json } from './helpers/cli.js';

const REPO_ROOT = path.resolve(CLI_ROOT, '..');
/** In the broker's default CORS_ALLOWED_ORIGINS; the test broker listens on 127.0.0.1, which is not. */
const ALLOWED_ORIGIN = 'http://localhost:5173';

let broker: TestBroker;
let smoke: (...args: string[]) => ReturnType<ReturnType<typeof as>>;
/** When set, the broker's nack route misbehaves: it answers without doing anything. */
let brokenNack = false;

beforeAll(async () => {
  // The dashboard check wants the real build at /, as a deploy serves it.
  if (!existsSync(path.join(REPO_ROOT, 'dashboard', 'dist', 'index.html'))) {
    execFileSync('npm', ['run', 'build', '-w', '@miniqueue/dashboard'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }
  broker = await startBroker();
  broker.broker.server.ext('onRequest', (request: Request, h: ResponseToolkit) => {
    const nack = /^\/api\/v1\/messages\/([^/]+)\/nack$/.exec(request.path);
    if (!brokenNack || !nack) return h.continue;
    return h.response({ message_id: nack[1], status: 'PENDING' }).code(200).takeover();
  });
  const admin = as(broker);
  smoke = (...args) => admin('smoke', '--cors-origin', ALLOWED_ORIGIN, ...args);
}, 180_000);
afterAll(async () => {
  await broker?.stop();
});

/** Topics, queues and clients a smoke run left behind. */
async function leftovers(): Promise<string[]> {
  const names = [
    ...(await broker.get('/api/v1/topics', broker.adminKey)).body.map((t: { name: string }) => t.name),
    ...(await broker.get('/api/v1/queues', broker.adminKey)).body.map((q: { name: string }) => q.name),
    ...(await broker.get('/api/v1/clients', broker.adminKey)).body.map((c: { name: string }) => c.name),
  ];
  return names.filter((name) => name.startsWith('smoke-'));
}

describe('smoke', () => {
  it('passes every check against a healthy broker, and removes what it created', async () => {
    const result = await smoke('--json');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    const body = json(result);
    expect(body.ok).toBe(true);
    expect(body.checks.map((c: { name: string }) => c.name)).toEqual(CHECK_NAMES);
    expect(body.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
    expect(body.cleanup_problems).toEqual([]);
    expect(await leftovers()).toEqual([]);
  });

  it('prints one PASS line per check', async () => {
    const result = await smoke('--skip', 'dashboard');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.map((line) => line.split(/\s+/).slice(0, 2).join(' '))).toEqual(CHECK_NAMES.filter((n) => n !== 'dashboard').map((n) => `PASS ${n}`));
    expect(result.stderr).toContain('All 9 checks passed');
  });

  it('fails, naming the check and why, when a route misbehaves; still cleans up', async () => {
    brokenNack = true;
    try {
      const result = await smoke('--json');
      expect(result.exitCode).toBe(1);
      const failed = json(result).checks.filter((c: { ok: boolean }) => !c.ok);
      expect(failed).toEqual([expect.objectContaining({ name: 'dead-letter', detail: 'nack with requeue=false answered PENDING, not DEAD' })]);
      const text = await smoke('--skip', 'dashboard');
      expect(text.exitCode).toBe(1);
      expect(text.stdout).toMatch(/^FAIL\s+dead-letter\s+nack with requeue=false answered PENDING, not DEAD/m);
      expect(text.stderr).toContain('Failed: dead-letter');
    } finally {
      brokenNack = false;
    }
    expect(await leftovers()).toEqual([]);
  });

  it('passes against a broker at an address CORS_ALLOWED_ORIGINS does not list: its own origin needs no CORS', async () => {
    const result = await as(broker)('smoke', '--skip', 'dashboard');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^PASS\\s+cors\\s+its own origin ${new URL(broker.url).origin.replaceAll('.', '\\.')} needs none`, 'm'));
  });

  it('fails the cors check when the allowed origin is not allowed', async () => {
    const result = await as(broker)('smoke', '--cors-origin', 'https://not-listed.example', '--skip', 'dashboard');
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(/^FAIL\s+cors\s+a preflight from https:\/\/not-listed.example was not allowed/m);
  });
});
