// The SDK can be rebuilt while other processes load it (`npm run build -w @miniqueue/api` builds
// the SDK first, and test files import it meanwhile): every file its package.json points at is
// there at every moment of the build (sdk/scripts/build.mjs). Real build, real files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const sdkDir = fileURLToPath(new URL('../../sdk/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));
/** Every file a loader may resolve the package to: main, module, types and each export condition. */
const entries = [
  ...new Set(
    [manifest.main, manifest.module, manifest.types, ...Object.values(manifest.exports['.']).flatMap((condition) => Object.values(condition))].map((entry) =>
      path.join(sdkDir, entry),
    ),
  ),
];

const build = () =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(sdkDir, 'scripts', 'build.mjs')], { cwd: sdkDir, stdio: 'ignore' });
    child.on('exit', (code) => resolve(code));
  });

describe('rebuilding the SDK', () => {
  it('never leaves a file its package.json names missing while it runs', async () => {
    assert.equal(await build(), 0, 'the first build');
    const missing = new Set();
    let looks = 0;
    let building = true;
    const done = build().finally(() => (building = false));
    while (building) {
      for (const entry of entries) if (!existsSync(entry)) missing.add(path.relative(sdkDir, entry));
      looks += 1;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    assert.equal(await done, 0, 'the second build');
    assert.ok(looks > 20, `looked ${looks} times during the build`);
    assert.deepEqual([...missing], []);
    for (const entry of entries) assert.ok(existsSync(entry), entry);
  });
});
