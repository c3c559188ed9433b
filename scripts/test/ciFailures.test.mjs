// .ci/failures.mjs names what failed in an `npm test` log, wherever in the log it was. Real npm
// workspaces running the repo's own vitest: one fails (two tests and a late rejection), the one
// after it passes, as a failing api run is followed by the passing sdk, cli and dashboard runs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { failuresIn } from '../../.ci/failures.mjs';

/** The workspaces' own vitest, as npm installs it for them. */
const vitest = fileURLToPath(new URL('../../node_modules/.bin/vitest', import.meta.url));
let root;

/** `npm test` over both workspaces, as the root's test script runs them: its output and errors in one log, as CI keeps them. */
function npmTest() {
  const run = spawnSync('sh', ['-c', 'npm run test --workspaces 2>&1'], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true', FORCE_COLOR: '1' } });
  return { status: run.status, log: run.stdout };
}

function workspace(name, tests) {
  mkdirSync(path.join(root, name, 'test'), { recursive: true });
  writeFileSync(path.join(root, name, 'package.json'), JSON.stringify({ name, private: true, scripts: { test: `${vitest} run --globals` } }));
  for (const [file, text] of Object.entries(tests)) writeFileSync(path.join(root, name, 'test', file), text);
}

before(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'miniqueue-ci-failures-'));
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'r', private: true, workspaces: ['first', 'second'] }));
  workspace('first', {
    'broken.test.js': [
      "test('keeps its promise', () => expect(1).toBe(1));",
      "test('counts the held messages', () => expect({ held: 2 }).toEqual({ held: 1 }));",
      "test('answers in time', () => { throw new Error('took 2500 ms'); });",
      "test('leaves a late rejection', async () => { setTimeout(() => Promise.reject(new Error('socket hang up')), 1); await new Promise((r) => setTimeout(r, 30)); });",
    ].join('\n'),
  });
  workspace('second', Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`fine${i}.test.js`, `test('passes ${i}', () => expect(${i}).toBe(${i}));`])));
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('.ci/failures.mjs', () => {
  it('names the failed tests, their messages, the late rejection and the workspace, and nothing that passed', () => {
    const { status, log } = npmTest();
    assert.notEqual(status, 0);
    // What failed is far above the end of the output, under the passing workspace's report.
    assert.ok(log.lastIndexOf('counts the held messages') < log.lastIndexOf('fine4.test.js'));
    const summary = failuresIn(log).join('\n');
    for (const expected of [
      'broken.test.js > counts the held messages',
      'broken.test.js > answers in time',
      'expected { held: 2 } to deeply equal { held: 1 }',
      'took 2500 ms',
      'socket hang up',
      'npm error workspace first',
    ]) {
      assert.ok(summary.includes(expected), `missing ${JSON.stringify(expected)} in:\n${summary}`);
    }
    assert.ok(!summary.includes('\u001b['), 'colour codes are removed');
    assert.ok(!summary.includes('fine4.test.js'), 'a passing file is not listed');
    assert.ok(!summary.includes('✓'), 'no passing test or file is listed');
  });

  it('finds nothing in a log where everything passed', () => {
    rmSync(path.join(root, 'first'), { recursive: true });
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'r', private: true, workspaces: ['second'] }));
    const { status, log } = npmTest();
    assert.equal(status, 0);
    assert.deepEqual(failuresIn(log), []);
  });
});
