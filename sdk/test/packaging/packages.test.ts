/**
 * The SDK and the CLI as a user gets them by the READMEs' install route (`npm run pack:all` in the
 * clone, then `npm install` of the tarballs), installed outside this repository, used against a
 * live broker. TypeScript consumers are type-checked with tsc.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkBroker, type SdkBroker } from '../helpers/broker.js';
import { INSTALL_ROUTE, packAll, run, runDocumented } from './npm.js';
import { writeScratchProjects, type ScratchProject, type Target } from './scratchProjects.js';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const SETUP_MS = 600_000;

let dir: string;
let broker: SdkBroker;
let projects: ScratchProject[];
let targets: Record<string, Target>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-packages-'));
  [broker] = await Promise.all([startSdkBroker(), packAll()]);
  const names = ['ts-esm', 'ts-cjs', 'js-import', 'js-require'];
  const user = await broker.admin.clients.create('package-user', ['publish:*', 'consume:*']);
  targets = {};
  for (const name of names) {
    await broker.admin.topics.create(`pkg.${name}`);
    await broker.admin.queues.create(`pkg-${name}`, `pkg.${name}`);
    targets[name] = { url: broker.broker.url, apiKey: user.api_key, topic: `pkg.${name}`, queue: `pkg-${name}` };
  }
  const consumers = path.join(dir, 'consumers');
  projects = await writeScratchProjects(consumers, targets);
  await writeFile(path.join(consumers, 'package.json'), JSON.stringify({ name: 'consumers', private: true }));
  await runDocumented(INSTALL_ROUTE.sdk, consumers);
}, SETUP_MS);

afterAll(async () => {
  await broker?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('@miniqueue/sdk from its tarball', () => {
  it('ships compiled JavaScript and declarations only', async () => {
    const installed = path.join(dir, 'consumers', 'node_modules', '@miniqueue', 'sdk');
    const files = (await readdir(installed, { recursive: true })).map(String);
    expect(files).toContain(path.join('dist', 'index.d.ts'));
    expect(files).toContain(path.join('dist', 'cjs', 'index.d.ts'));
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => file.endsWith('.map'))).toEqual([]);
  });

  for (const name of ['ts-esm', 'ts-cjs', 'js-import', 'js-require']) {
    it(`publishes, consumes and acks from a ${name} project`, async () => {
      const project = projects.find((p) => p.name === name)!;
      if (project.typescript) await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project.dir });
      const { stdout } = await run(process.execPath, [project.entry], { cwd: project.dir });
      const outcome = JSON.parse(stdout.trim());
      expect(outcome.payload).toBe(`from ${name}`);
      expect(outcome.consumed).toBe(outcome.published);
      expect(outcome.acked).toMatchObject({ message_id: outcome.published });
      // The broker agrees: the queue holds nothing pending or in flight.
      const queue = (await broker.admin.dashboard.queues()).find((q) => q.queue === targets[name]!.queue);
      expect(queue).toMatchObject({ pending: 0, unacked: 0 });
    });
  }
});

describe('miniqueue (@miniqueue/cli) installed globally from its tarball', () => {
  let prefix: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    prefix = path.join(dir, 'global');
    await mkdir(path.join(prefix, 'lib'), { recursive: true }); // npm expects it with --prefix
    // The SDK's tarball beside it stands in for the registry's copy of the same version.
    await runDocumented(INSTALL_ROUTE.cli, dir, ['--prefix', prefix]);
    env = {
      PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`,
      HOME: dir,
      MINIQUEUE_CONFIG_DIR: path.join(dir, 'config'),
      OCLIF_SKIP_NEW_VERSION_CHECK: 'true',
    };
  }, SETUP_MS);

  it('is compiled: no TypeScript sources and no tsx', async () => {
    const modules = path.join(prefix, 'lib', 'node_modules');
    expect(existsSync(path.join(modules, '@miniqueue', 'cli', 'dist', 'commands'))).toBe(true);
    expect(existsSync(path.join(modules, '@miniqueue', 'cli', 'src'))).toBe(false);
    const everything = (await readdir(modules, { recursive: true })).map(String);
    expect(everything.filter((file) => file.split(path.sep).includes('tsx'))).toEqual([]);
  });

  it('prints its version', async () => {
    const { stdout } = await run('miniqueue', ['--version'], { cwd: dir, env });
    expect(stdout).toMatch(/^@miniqueue\/cli\/0\.1\.0 /);
  });

  it('talks to the broker', async () => {
    const { stdout } = await run('miniqueue', ['topics:list', '--json', '--url', broker.broker.url, '--api-key', broker.broker.adminKey], { cwd: dir, env });
    const names = JSON.stringify(JSON.parse(stdout));
    expect(names).toContain('pkg.ts-esm');
  });
});
