#!/usr/bin/env node
// Builds dist/: the SDK bundled into one ES module (dist/index.js) and one CommonJS file
// (dist/cjs/index.js), with tsc's declarations beside each. One file, not one per source module:
// Node loads ~60 small modules in 60-90 ms and one bundle in a few, which a command-line tool
// built on the SDK pays on every start. A CommonJS TypeScript project must see CommonJS types
// (else TS1479), so the declarations, which are the same text for both, are copied into
// dist/cjs/, where dist/cjs/package.json makes them CommonJS.
//
// The build is written to a staging folder and then moved into dist/ a file at a time (a rename
// each), so a process that loads the SDK while it is rebuilt (a test run beside `npm run build -w
// @miniqueue/api`, whose prebuild builds the SDK) finds the old file or the new one, never none.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const dist = join(sdkDir, 'dist');
// Beside dist/ on the same file system, so that moving a file is one rename.
const staging = join(sdkDir, '.tmp', `build-${process.pid}`);
const cjs = join(staging, 'cjs');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** Every file below `dir`, as paths relative to it. */
const filesBelow = (dir) => (existsSync(dir) ? readdirSync(dir, { recursive: true }).filter((file) => statSync(join(dir, file)).isFile()) : []);

rmSync(staging, { recursive: true, force: true });
// Type-checks the sources and writes the declarations.
const checked = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--emitDeclarationOnly', '--outDir', staging], { cwd: sdkDir, stdio: 'inherit' });
if (checked.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(checked.status ?? 1);
}

const common = {
  entryPoints: [join(sdkDir, 'src', 'index.ts')],
  bundle: true,
  // Browsers and Node alike; Node's own modules and `ws` are imported by name at run time only in Node.
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
};
await build({ ...common, format: 'esm', outfile: join(staging, 'index.js') });
await build({ ...common, format: 'cjs', outfile: join(cjs, 'index.js') });

for (const file of readdirSync(staging, { recursive: true })) {
  if (!file.endsWith('.d.ts') || file.startsWith('cjs')) continue;
  mkdirSync(dirname(join(cjs, file)), { recursive: true });
  copyFileSync(join(staging, file), join(cjs, file));
}
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);

// Into dist/: each file replaced by a rename, then what the new build no longer has removed.
const built = filesBelow(staging);
for (const file of built) {
  mkdirSync(dirname(join(dist, file)), { recursive: true });
  renameSync(join(staging, file), join(dist, file));
}
const kept = new Set(built);
for (const file of filesBelow(dist)) if (!kept.has(file)) rmSync(join(dist, file));
rmSync(staging, { recursive: true, force: true });
