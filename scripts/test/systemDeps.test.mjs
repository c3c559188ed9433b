// The check that runs before the test suites: what it decides, and what the real script does when
// a program is missing and it cannot install it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { plan } from '../system-deps/plan.mjs';

const SCRIPT = fileURLToPath(new URL('../system-deps.mjs', import.meta.url));
const promtool = { name: 'promtool', debianPackage: 'prometheus' };
const chromium = { name: 'chromium', debianPackage: 'chromium' };

describe('plan', () => {
  it('does nothing when every program is there', () => {
    assert.deepEqual(plan({ missing: [], isRoot: false, hasAptGet: false }), { action: 'none' });
  });

  it('installs the missing packages as root with apt-get', () => {
    assert.deepEqual(plan({ missing: [promtool, chromium], isRoot: true, hasAptGet: true }), {
      action: 'install',
      packages: ['prometheus', 'chromium'],
    });
  });

  for (const facts of [
    { isRoot: false, hasAptGet: true },
    { isRoot: true, hasAptGet: false },
  ]) {
    it(`stops with one line naming what to install (root: ${facts.isRoot}, apt-get: ${facts.hasAptGet})`, () => {
      const decision = plan({ missing: [promtool], ...facts });
      assert.equal(decision.action, 'stop');
      assert.doesNotMatch(decision.message, /\n/);
      assert.match(decision.message, /need promtool:/);
      assert.match(decision.message, /apt-get install -y --no-install-recommends prometheus\)/);
    });
  }
});

describe('scripts/system-deps.mjs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'miniqueue-system-deps-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  // A PATH with node alone: no promtool and no apt-get, so nothing can be installed.
  const bare = join(dir, 'bare');
  // PostgreSQL 15's programs, present unless a test says otherwise.
  const pgBin = join(dir, 'pg15');
  const run = (env) => spawnSync(process.execPath, [SCRIPT], { env: { PATH: bare, MINIQUEUE_TEST_PG_BIN: pgBin, ...env }, encoding: 'utf8' });

  function executable(name, inDir = dir) {
    mkdirSync(inDir, { recursive: true });
    const file = join(inDir, name);
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o755);
    return file;
  }
  for (const program of ['postgres', 'pg_dump', 'pg_basebackup', 'pg_rewind']) executable(program, pgBin);

  it('stops at once with one line naming both programs and their packages', () => {
    const result = run({ CHROMIUM_PATH: join(dir, 'no-chromium') });
    assert.equal(result.status, 1);
    assert.equal(result.stdout, '');
    assert.equal(
      result.stderr,
      'The tests need promtool and chromium: install them (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends prometheus chromium) and run npm test again.\n',
    );
  });

  it('names PostgreSQL 15 when one of its programs is missing', () => {
    const partial = join(dir, 'pg15-partial');
    for (const program of ['postgres', 'pg_dump', 'pg_basebackup']) executable(program, partial);
    const withTools = join(dir, 'tools');
    executable('promtool', withTools);
    const result = run({ PATH: withTools, CHROMIUM_PATH: executable('chromium-browser'), MINIQUEUE_TEST_PG_BIN: partial });
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr,
      'The tests need PostgreSQL 15: install them (Debian/Ubuntu: sudo apt-get install -y --no-install-recommends postgresql-15) and run npm test again.\n',
    );
  });

  it('passes quietly when all are there', () => {
    executable('promtool');
    const result = run({ PATH: dir, CHROMIUM_PATH: executable('chromium-browser') });
    assert.equal(result.stderr, '');
    assert.equal(result.status, 0);
  });
});
