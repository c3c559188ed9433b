// npm start builds a workspace only when its inputs changed (scripts/start/buildChanged.mjs), and
// always says where the admin key is (scripts/start/adminKeyNotice.mjs). Real npm, real files.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { adminKeyNotice } from '../start/adminKeyNotice.mjs';
import { buildIfChanged } from '../start/buildChanged.mjs';

let root;
const target = { workspace: 'w', inputs: ['w/src'], output: 'w/dist/out.txt', stamp: '.tmp/build/w.signature' };
const builds = () => readFileSync(path.join(root, 'builds.txt'), 'utf8').length;
const quiet = () => undefined;

before(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'miniqueue-start-'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'r', private: true, workspaces: ['w'] }));
  mkdirSync(path.join(root, 'w', 'src'), { recursive: true });
  // Each build writes its output and counts itself.
  const build =
    "require('fs').mkdirSync('dist',{recursive:true});require('fs').writeFileSync('dist/out.txt','x');require('fs').appendFileSync('../builds.txt','b')";
  writeFileSync(path.join(root, 'w', 'package.json'), JSON.stringify({ name: 'w', version: '1.0.0', scripts: { build: `node -e "${build}"` } }));
  writeFileSync(path.join(root, 'w', 'src', 'a.ts'), 'a');
  writeFileSync(path.join(root, 'builds.txt'), '');
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('npm start builds only what changed', () => {
  it('builds the first time, then not while nothing changed', () => {
    assert.equal(buildIfChanged(root, target, quiet), true);
    assert.equal(buildIfChanged(root, target, quiet), false);
    assert.equal(builds(), 1);
  });

  it('builds again when a source is edited, added or removed', () => {
    const file = path.join(root, 'w', 'src', 'a.ts');
    writeFileSync(file, 'a');
    utimesSync(file, new Date(), new Date(Date.now() + 5000)); // a save the same millisecond would not show
    assert.equal(buildIfChanged(root, target, quiet), true);
    writeFileSync(path.join(root, 'w', 'src', 'b.ts'), 'b');
    assert.equal(buildIfChanged(root, target, quiet), true);
    rmSync(path.join(root, 'w', 'src', 'b.ts'));
    assert.equal(buildIfChanged(root, target, quiet), true);
    assert.equal(buildIfChanged(root, target, quiet), false);
    assert.equal(builds(), 4);
  });

  it('builds again when the output is gone', () => {
    rmSync(path.join(root, 'w', 'dist', 'out.txt'));
    assert.equal(buildIfChanged(root, target, quiet), true);
    assert.equal(builds(), 5);
  });
});

describe('a target with a command of its own and an incremental cache', () => {
  it('runs that command, and drops the cache when the output is gone, so the compiler emits again', () => {
    const cache = path.join(root, '.tmp', 'build', 'c.cache');
    const custom = {
      workspace: 'c',
      inputs: ['w/src'],
      output: 'c/out.txt',
      stamp: '.tmp/build/c.signature',
      cache: '.tmp/build/c.cache',
      // Records whether the cache was still there when it ran.
      command: [
        process.execPath,
        '-e',
        `const fs=require('fs');fs.mkdirSync('c',{recursive:true});fs.writeFileSync('c/out.txt',String(fs.existsSync(${JSON.stringify(cache)})))`,
      ],
    };
    mkdirSync(path.dirname(cache), { recursive: true });
    writeFileSync(cache, 'stale');
    assert.equal(buildIfChanged(root, custom, quiet), true);
    assert.equal(readFileSync(path.join(root, 'c', 'out.txt'), 'utf8'), 'false');
  });
});

describe('every start says where the admin key is', () => {
  it('in the data directory, whether it is there yet or not; never the key itself', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'miniqueue-key-'));
    try {
      assert.match(
        adminKeyNotice({ MINIQUEUE_DATA_DIR: dir }, root),
        new RegExp(`none yet; this start makes one, prints it once and keeps it in ${dir}/admin-key`),
      );
      writeFileSync(path.join(dir, 'admin-key'), 'mq_secret\n');
      const notice = adminKeyNotice({ MINIQUEUE_DATA_DIR: dir }, root);
      assert.match(notice, new RegExp(`kept in ${dir}/admin-key`));
      assert.doesNotMatch(notice, /mq_secret/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the default data directory is ./.miniqueue; with DATABASE_URL or a configured key it says so', () => {
    assert.match(adminKeyNotice({}, '/srv/mq'), /\/srv\/mq\/\.miniqueue\/admin-key/);
    assert.match(adminKeyNotice({ DATABASE_URL: 'postgres://x' }, root), /printed once.*not kept on disk/);
    assert.match(adminKeyNotice({ MINIQUEUE_BOOTSTRAP_ADMIN_KEY: 'mq_secret' }, root), /holds the key in MINIQUEUE_BOOTSTRAP_ADMIN_KEY\.$/);
  });
});

describe('what npm start builds', () => {
  it('the dashboard, which bundles the SDK, is rebuilt when the SDK’s sources change', async () => {
    const { TARGETS } = await import('../start/targets.mjs');
    const [sdk, dashboard] = TARGETS;
    assert.equal(sdk.workspace, '@miniqueue/sdk');
    assert.equal(dashboard.workspace, '@miniqueue/dashboard');
    for (const input of sdk.inputs) assert.ok(dashboard.inputs.includes(input), input);
  });
});
