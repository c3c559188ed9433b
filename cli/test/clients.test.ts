import { describe, expect, it } from 'vitest';
import { as, type TestBroker } from './helpers/broker.js';
import { json } from './helpers/cli.js';
import { brokerForFile, type FileBroker } from './helpers/fileBroker.js';

let broker: TestBroker;
let admin: FileBroker['admin'];
brokerForFile((started) => ({ broker, admin } = started));

const KEY = /^mq_[A-Za-z0-9_-]{40,}$/;

async function status(key: string): Promise<number> {
  return (await broker.get('/api/v1/auth/me', key)).status;
}

describe('clients:create', () => {
  it('prints the key once, last on stdout, with the warning on stderr', async () => {
    const result = await admin('clients:create', 'shop', '--scope', 'publish:order.placed', '--scope', 'view');
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trim().split('\n');
    const key = lines.at(-1)!;
    expect(key).toMatch(KEY);
    expect(result.stdout.split(key).length - 1).toBe(1);
    expect(result.stdout).toMatch(/scopes\s+publish:order\.placed, view/);
    expect(result.stderr).toContain('it will not be shown again');
    expect(await status(key)).toBe(200);
  });

  it('--json is the registered client with its key', async () => {
    const created = json(await admin('clients:create', 'mailer', '-s', 'consume:email-queue', '--json'));
    expect(Object.keys(created).sort()).toEqual(['api_key', 'created_at', 'key_prefix', 'name', 'scopes']);
    expect(created).toMatchObject({ name: 'mailer', scopes: ['consume:email-queue'] });
    expect(created.api_key).toMatch(KEY);
    expect(created.api_key.startsWith(created.key_prefix)).toBe(true);
  });

  it('a taken name is exit code 5', async () => {
    await admin('clients:create', 'twice', '--scope', 'view');
    const result = await admin('clients:create', 'twice', '--scope', 'view');
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/^Error: .*twice/);
  });

  it("an unknown scope is the broker's field error", async () => {
    const result = await admin('clients:create', 'bad-scope', '--scope', 'root');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      'Error: Unknown scope: scopes[0] unknown scope "root"\nHint: Scopes are admin, view, publish:TOPIC and consume:QUEUE (a name, or a prefix ending in *). See `miniqueue clients:create --help`.\n',
    );
  });

  it('without admin: exit 3, naming the missing scope and what the key has', async () => {
    const viewer = await broker.clientKey('viewer-clients', ['view']);
    const result = await as(broker, viewer)('clients:create', 'sneaky', '--scope', 'admin');
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^Error: This needs the scope admin/);
    expect(result.stderr).toContain('Hint: Your key (viewer-clients) has: view.');
  });

  it('--scope is required', async () => {
    const result = await admin('clients:create', 'no-scope');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Missing required flag scope');
  });
});

describe('clients:list', () => {
  it('shows names, prefixes and scopes, never keys', async () => {
    const key = json(await admin('clients:create', 'listed', '--scope', 'metrics', '--json')).api_key as string;
    const result = await admin('clients:list');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^NAME\s+KEY PREFIX\s+CREATED\s+LAST USED\s+SCOPES/);
    expect(result.stdout).toMatch(new RegExp(`listed\\s+${key.slice(0, 12)}\\s+\\S+ \\S+Z\\s+-\\s+metrics`));
    expect(result.stdout).not.toContain(key);
    expect(result.stdout).not.toContain(broker.adminKey);
  });

  it('--json is the list of clients, without keys', async () => {
    const clients = json<Array<Record<string, unknown>>>(await admin('clients:list', '--json'));
    const names = clients.map((client) => client.name);
    expect(names).toContain('bootstrap-admin');
    for (const client of clients) expect(Object.keys(client).sort()).toEqual(['created_at', 'key_prefix', 'last_used_at', 'name', 'scopes']);
  });
});

describe('clients:rotate', () => {
  it('prints a new key; the old one stops working', async () => {
    const old = await broker.clientKey('rotated', ['view']);
    const result = await admin('clients:rotate', 'rotated');
    expect(result.exitCode).toBe(0);
    const fresh = result.stdout.trim().split('\n').at(-1)!;
    expect(fresh).toMatch(KEY);
    expect(fresh).not.toBe(old);
    expect(result.stderr).toContain('it will not be shown again');
    expect(await status(old)).toBe(401);
    expect(await status(fresh)).toBe(200);
  });

  it('an unknown client is exit code 4 with where to look', async () => {
    const result = await admin('clients:rotate', 'ghost');
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toBe(
      'Error: No client found with the name ghost\nHint: `miniqueue clients:list` shows the registered clients (a revoked one is gone for good).\n',
    );
  });
});

describe('clients:update', () => {
  it('replaces the scopes and keeps the key; --json is the client without its key', async () => {
    const key = await broker.clientKey('changed', ['view', 'publish:*']);
    const result = await admin('clients:update', 'changed', '--scope', 'publish:orders', '-s', 'consume:email-queue');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/scopes\s+publish:orders, consume:email-queue/);
    expect(result.stdout).not.toMatch(/mq_[A-Za-z0-9_-]{40,}/);
    expect((await broker.get('/api/v1/auth/me', key)).body.scopes).toEqual(['publish:orders', 'consume:email-queue']);
    const again = json(await admin('clients:update', 'changed', '--scope', 'view', '--json'));
    expect(Object.keys(again).sort()).toEqual(['created_at', 'key_prefix', 'last_used_at', 'name', 'scopes']);
    expect(again).toMatchObject({ name: 'changed', scopes: ['view'], key_prefix: key.slice(0, 12) });
  });

  it("an unknown scope is the broker's field error; an unknown client exit code 4", async () => {
    const bad = await admin('clients:update', 'changed', '--scope', 'root');
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe(
      'Error: Unknown scope: scopes[0] unknown scope "root"\nHint: Scopes are admin, view, publish:TOPIC and consume:QUEUE (a name, or a prefix ending in *). See `miniqueue clients:update --help`.\n',
    );
    const ghost = await admin('clients:update', 'ghost', '--scope', 'view');
    expect(ghost.exitCode).toBe(4);
    expect(ghost.stderr).toContain('Hint: `miniqueue clients:list` shows the registered clients (a revoked one is gone for good).');
  });

  it('--scope is required', async () => {
    const result = await admin('clients:update', 'changed');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('Missing required flag scope');
  });
});

describe('clients:revoke', () => {
  it('will not revoke without confirmation when there is no terminal', async () => {
    const key = await broker.clientKey('kept', ['view']);
    const result = await admin('clients:revoke', 'kept');
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--yes');
    expect(await status(key)).toBe(200);
  });

  it('--yes revokes at once', async () => {
    const key = await broker.clientKey('gone', ['view']);
    const result = json(await admin('clients:revoke', 'gone', '--yes', '--json'));
    expect(result).toEqual({ name: 'gone', revoked: true });
    expect(await status(key)).toBe(401);
  });

  it('revoking an unknown client is exit code 4', async () => {
    expect((await admin('clients:revoke', 'ghost', '--yes')).exitCode).toBe(4);
  });
});
