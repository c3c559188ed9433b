#!/usr/bin/env node
// Builds dist/: the SDK bundled into one ES module (dist/index.js) and one CommonJS file
// (dist/cjs/index.js), with tsc's declarations beside each. One file, not one per source module:
// Node loads ~60 small modules in 60-90 ms and one bundle in a few, which a command-line tool
// built on the SDK pays on every start. A CommonJS TypeScript project must see CommonJS types
// (else TS1479), so the declarations, which are the same text for both, are copied into
// dist/cjs/, where dist/cjs/package.json makes them CommonJS.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const dist = join(sdkDir, 'dist');
const cjs = join(dist, 'cjs');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(dist, { recursive: true, force: true });
// Type-checks the sources and writes the declarations.
const checked = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--emitDeclarationOnly'], { cwd: sdkDir, stdio: 'inherit' });
if (checked.status !== 0) process.exit(checked.status ?? 1);

const common = {
  entryPoints: [join(sdkDir, 'src', 'index.ts')],
  bundle: true,
  // Browsers and Node alike; Node's own modules and `ws` are imported by name at run time only in Node.
  platform: 'neutral',
  target: 'es2022',
  legalComments: 'none',
  logLevel: 'warning',
};
await build({ ...common, format: 'esm', outfile: join(dist, 'index.js') });
await build({ ...common, format: 'cjs', outfile: join(cjs, 'index.js') });

for (const file of readdirSync(dist, { recursive: true })) {
  if (!file.endsWith('.d.ts') || file.startsWith('cjs')) continue;
  mkdirSync(dirname(join(cjs, file)), { recursive: true });
  copyFileSync(join(dist, file), join(cjs, file));
}
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
