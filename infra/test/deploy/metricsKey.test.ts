/**
 * prometheus/metrics-key.mjs against a stand-in broker on loopback: it issues Prometheus' key,
 * retries while the broker starts, and never prints a key.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { repoPath } from '../helpers/repo.js';

const ADMIN_KEY = `mq_${'a'.repeat(43)}`;
const NEW_KEY = `mq_${'n'.repeat(43)}`;
const ROTATED_KEY = `mq_${'r'.repeat(43)}`;

type Reply = { status: number; body?: unknown };
interface Seen {
  method?: string;
  url?: string;
  authorization?: string;
  body: string;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Answers each request with the next reply of the script, and records what it was asked. */
async function standInBroker(replies: Reply[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    seen.push({ method: request.method, url: request.url, authorization: request.headers.authorization, body });
    const reply = replies.shift() ?? { status: 500 };
    response.writeHead(reply.status, { 'content-type': 'application/json' });
    response.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, seen };
}

const script = repoPath('prometheus/metrics-key.mjs');
const run = (env: Record<string, string>) => promisify(execFile)(process.execPath, [script], { env: { PATH: process.env.PATH, ...env } });

describe('metrics-key.mjs', () => {
  it('creates the client prometheus with only the metrics scope and writes its key', async () => {
    const broker = await standInBroker([{ status: 201, body: { name: 'prometheus', api_key: NEW_KEY } }]);
    const file = join(mkdtempSync(join(tmpdir(), 'metrics-key-')), 'metrics-key');
    const { stdout } = await run({ MINIQUEUE_URL: broker.url, MINIQUEUE_ADMIN_KEY: ADMIN_KEY, METRICS_KEY_FILE: file });
    expect(readFileSync(file, 'utf8')).toBe(`${NEW_KEY}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(broker.seen).toEqual([
      {
        method: 'POST',
        url: '/api/v1/clients',
        authorization: `Bearer ${ADMIN_KEY}`,
        body: JSON.stringify({ name: 'prometheus', scopes: ['metrics'] }),
      },
    ]);
    expect(stdout).not.toContain('mq_');
  });

  it('rotates the key when the client exists already (a restart)', async () => {
    const broker = await standInBroker([{ status: 409 }, { status: 200, body: { api_key: ROTATED_KEY } }]);
    const file = join(mkdtempSync(join(tmpdir(), 'metrics-key-')), 'metrics-key');
    await run({ MINIQUEUE_URL: broker.url, MINIQUEUE_ADMIN_KEY: ADMIN_KEY, METRICS_KEY_FILE: file });
    expect(readFileSync(file, 'utf8')).toBe(`${ROTATED_KEY}\n`);
    expect(broker.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /api/v1/clients', 'POST /api/v1/clients/prometheus/rotate']);
  });

  it('waits while the broker is not yet answering, then succeeds', async () => {
    const { issueWhenReady } = await import('../../../prometheus/metrics-key.mjs' as string);
    const broker = await standInBroker([{ status: 503 }, { status: 503 }, { status: 201, body: { api_key: NEW_KEY } }]);
    const key = await issueWhenReady({ baseUrl: broker.url, adminKey: ADMIN_KEY, name: 'prometheus' }, 5, 10);
    expect(key).toBe(NEW_KEY);
    expect(broker.seen).toHaveLength(3);
  });

  it('fails at once on a refused admin key, without printing it', async () => {
    const broker = await standInBroker([{ status: 401 }]);
    const file = join(mkdtempSync(join(tmpdir(), 'metrics-key-')), 'metrics-key');
    const failure = await run({ MINIQUEUE_URL: broker.url, MINIQUEUE_ADMIN_KEY: ADMIN_KEY, METRICS_KEY_FILE: file }).catch((e) => e);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('HTTP 401');
    expect(`${failure.stdout}${failure.stderr}`).not.toContain(ADMIN_KEY);
    expect(broker.seen).toHaveLength(1);
  });
});
