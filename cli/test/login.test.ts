import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closedPort, startBroker, tempConfigDir, type TestBroker } from './helpers/broker.js';
import { json, runCli, spawnCli } from './helpers/cli.js';
import { createSession, eventually } from '@miniqueue/api/testing';

let broker: TestBroker;
let config: Awaited<ReturnType<typeof tempConfigDir>>;
let env: Record<string, string>;

beforeAll(async () => {
  broker = await startBroker();
});
afterAll(async () => {
  await broker?.stop();
});
beforeEach(async () => {
  config = await tempConfigDir();
  env = { MINIQUEUE_CONFIG_DIR: config.dir };
});
afterEach(async () => {
  await config.remove();
});

const configFile = () => path.join(config.dir, 'config.json');

describe('login', () => {
  it('checks the key, saves it with mode 0600, and never prints it', async () => {
    const result = await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('as bootstrap-admin (client; scopes: admin)');
    expect(result.stdout + result.stderr).not.toContain(broker.adminKey);
    expect((await stat(configFile())).mode & 0o777).toBe(0o600);
    expect((await stat(config.dir)).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(await readFile(configFile(), 'utf8'));
    expect(saved).toEqual({ current: 'default', profiles: { default: { url: broker.url, apiKey: broker.adminKey } } });
  });

  it('tightens a config file that was readable by others when it rewrites it', async () => {
    await writeFile(configFile(), JSON.stringify({ profiles: {} }), { mode: 0o644 });
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey, '--profile', 'other'], env);
    expect((await stat(configFile())).mode & 0o777).toBe(0o600);
  });

  it('reads the key from standard input when it is not a terminal', async () => {
    const result = await spawnCli(['login', '--url', broker.url, '--profile', 'piped'], { env, input: `${broker.adminKey}\n` });
    expect(result.exitCode).toBe(0);
    expect(result.stdout + result.stderr).not.toContain(broker.adminKey);
    const saved = JSON.parse(await readFile(configFile(), 'utf8'));
    expect(saved.profiles.piped.apiKey).toBe(broker.adminKey);
    expect(saved.current).toBe('piped');
  });

  it('refuses a bad key with exit code 3 and a hint, and saves nothing', async () => {
    const result = await runCli(['login', '--url', broker.url, '--api-key', 'mq_not-a-real-key-0000000000000000000000000000'], env);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toMatch(/^Error: .+\nHint: .*refused/);
    await expect(stat(configFile())).rejects.toThrow(/ENOENT/);
  });

  it('--json gives the profile, principal and file, without the key', async () => {
    const result = json(await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey, '--json'], env));
    expect(result).toEqual({
      profile: 'default',
      url: broker.url,
      name: 'bootstrap-admin',
      kind: 'client',
      scopes: ['admin'],
      config_file: configFile(),
    });
  });

  it('uses XDG_CONFIG_HOME/miniqueue when MINIQUEUE_CONFIG_DIR is not set', async () => {
    const result = await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], { XDG_CONFIG_HOME: config.dir });
    expect(result.exitCode).toBe(0);
    expect((await stat(path.join(config.dir, 'miniqueue', 'config.json'))).mode & 0o777).toBe(0o600);
  });
});

describe('connection', () => {
  it('whoami uses the saved profile', async () => {
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    const result = await runCli(['whoami'], env);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/name\s+bootstrap-admin/);
    expect(result.stdout).toMatch(/kind\s+client/);
    expect(result.stdout).toMatch(/scopes\s+admin/);
    expect(result.stdout).toMatch(/profile\s+default/);
  });

  it('whoami --json has name, kind, scopes, url and profile', async () => {
    const viewer = await broker.clientKey('viewer-whoami', ['view', 'publish:orders']);
    const result = json(await runCli(['whoami', '--json'], { ...env, MINIQUEUE_URL: broker.url, MINIQUEUE_API_KEY: viewer }));
    expect(result).toEqual({ name: 'viewer-whoami', kind: 'client', scopes: ['view', 'publish:orders'], url: broker.url, profile: null });
  });

  it('flags win over the environment, which wins over the profile', async () => {
    const viewer = await broker.clientKey('viewer-precedence', ['view']);
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    const fromEnv = json(await runCli(['whoami', '--json'], { ...env, MINIQUEUE_API_KEY: viewer }));
    expect(fromEnv.name).toBe('viewer-precedence');
    const fromFlag = json(await runCli(['whoami', '--json', '--api-key', broker.adminKey], { ...env, MINIQUEUE_API_KEY: viewer }));
    expect(fromFlag.name).toBe('bootstrap-admin');
  });

  it('picks a profile with --profile or MINIQUEUE_PROFILE', async () => {
    const viewer = await broker.clientKey('viewer-profiles', ['view']);
    await runCli(['login', '--url', broker.url, '--api-key', viewer, '--profile', 'ops'], env);
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    expect(json(await runCli(['whoami', '--json'], env)).name).toBe('bootstrap-admin');
    expect(json(await runCli(['whoami', '--json', '--profile', 'ops'], env)).name).toBe('viewer-profiles');
    expect(json(await runCli(['whoami', '--json'], { ...env, MINIQUEUE_PROFILE: 'ops' })).name).toBe('viewer-profiles');
  });

  it('never sends a profile key to another broker URL', async () => {
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    const elsewhere = broker.url.replace('127.0.0.1', 'localhost');
    const result = await runCli(['whoami'], { ...env, MINIQUEUE_URL: elsewhere });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`No API key for ${elsewhere}`);
  });

  it('an unknown profile is a usage error naming the saved ones', async () => {
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    const result = await runCli(['whoami', '--profile', 'nope'], env);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('No saved profile named nope');
    expect(result.stderr).toContain('Saved profiles: default');
  });

  it('without any key: exit 3 and how to log in', async () => {
    const result = await runCli(['topics:list', '--url', broker.url], env);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`Hint: Log in with \`miniqueue login --url ${broker.url}\``);
  });

  it('a rejected saved key says to log in again with that profile', async () => {
    const doomed = await broker.clientKey('doomed', ['view']);
    await runCli(['login', '--url', broker.url, '--api-key', doomed, '--profile', 'doomed'], env);
    await broker.del('/api/v1/clients/doomed', broker.adminKey);
    // The broker drops cached keys when its notification of the revocation arrives, a moment later.
    await eventually(async () => (await broker.get('/api/v1/topics', doomed)).status === 401, 'the revocation to reach the broker');
    const result = await runCli(['topics:list', '--profile', 'doomed'], env);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('`miniqueue login --profile doomed`');
  });

  it('an unreachable broker is one line with a hint and exit code 1', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(['topics:list', '--url', url, '--api-key', broker.adminKey], env);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toBe(
      `Error: Cannot reach the broker at ${url} (ECONNREFUSED)\nHint: Is it running? Point at it with --url or MINIQUEUE_URL, or save it with \`miniqueue login\`.\n`,
    );
  }, 30_000);

  it('a damaged config file is named, with what to do', async () => {
    await writeFile(configFile(), '{"profiles": ');
    const result = await runCli(['whoami'], env);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(`Error: ${configFile()} is not valid JSON\nHint: Fix it, or delete it and log in again with \`miniqueue login\`.\n`);
  });
});

describe('logout', () => {
  it('forgets the current profile', async () => {
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey], env);
    const result = json(await runCli(['logout', '--json'], env));
    expect(result).toEqual({ profile: 'default', removed: true, current: null, config_file: configFile() });
    expect(JSON.parse(await readFile(configFile(), 'utf8'))).toEqual({ profiles: {} });
    expect((await runCli(['whoami'], env)).exitCode).toBe(3);
  });

  it('after forgetting the current profile, another saved one takes over and is named', async () => {
    const viewer = await broker.clientKey('viewer-handover', ['view']);
    await runCli(['login', '--url', broker.url, '--api-key', viewer, '--profile', 'ops'], env);
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey, '--profile', 'prod'], env);
    const result = await runCli(['logout'], env);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(`Forgot profile "prod" (${broker.url}).\nNow using profile "ops" (${broker.url}).\n`);
    expect(JSON.parse(await readFile(configFile(), 'utf8')).current).toBe('ops');
    expect(json(await runCli(['whoami', '--json'], env)).name).toBe('viewer-handover');
    expect(json(await runCli(['logout', '--json'], env))).toMatchObject({ profile: 'ops', current: null });
  });

  it('forgetting a profile that is not the current one leaves the current one alone', async () => {
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey, '--profile', 'spare'], env);
    await runCli(['login', '--url', broker.url, '--api-key', broker.adminKey, '--profile', 'main'], env);
    const result = await runCli(['logout', '--profile', 'spare'], env);
    expect(result.stdout).toBe(`Forgot profile "spare" (${broker.url}).\n`);
    expect(JSON.parse(await readFile(configFile(), 'utf8')).current).toBe('main');
  });

  it('a saved dashboard session is ended on the broker too', async () => {
    const { token } = await createSession(broker.pool, { githubId: '583231', login: 'octocat' });
    await runCli(['login', '--url', broker.url, '--api-key', token], env);
    expect(json(await runCli(['whoami', '--json'], env))).toMatchObject({ name: 'octocat', kind: 'session' });
    expect((await runCli(['logout'], env)).exitCode).toBe(0);
    expect((await broker.get('/api/v1/auth/me', token)).status).toBe(401);
  });

  it('an unknown profile is a usage error', async () => {
    expect((await runCli(['logout', '--profile', 'nope'], env)).exitCode).toBe(2);
  });
});
