#!/usr/bin/env node
// Builds dist/: ES modules with declarations, and dist/cjs/: the same as CommonJS. A CommonJS
// TypeScript project must see CommonJS types (else TS1479), so the declarations, which are the
// same text for both, are copied into dist/cjs/, where dist/cjs/package.json makes them CommonJS.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const dist = join(sdkDir, 'dist');
const cjs = join(dist, 'cjs');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(project) {
  const result = spawnSync(process.execPath, [tsc, '-p', project], { cwd: sdkDir, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync(dist, { recursive: true, force: true });
compile('tsconfig.json');
compile('tsconfig.cjs.json');
for (const file of readdirSync(dist, { recursive: true })) {
  if (!file.endsWith('.d.ts') || file.startsWith('cjs')) continue;
  mkdirSync(dirname(join(cjs, file)), { recursive: true });
  copyFileSync(join(dist, file), join(cjs, file));
}
writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
