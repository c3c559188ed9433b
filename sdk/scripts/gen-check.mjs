#!/usr/bin/env node
// Fails when src/generated/ is not exactly what openapi.yaml generates: a contract change must be
// regenerated (npm run generate) and committed with it.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const sdkDir = fileURLToPath(new URL('..', import.meta.url));
const run = (command, args, stdio = 'inherit') => spawnSync(command, args, { cwd: sdkDir, stdio, encoding: 'utf8' });

const generate = run(process.execPath, ['scripts/generate.mjs']);
if (generate.status !== 0) process.exit(generate.status ?? 1);

const changed = run('git', ['diff', '--exit-code', '--stat', '--', 'src/generated']);
const untracked = run('git', ['ls-files', '--others', '--exclude-standard', '--', 'src/generated'], 'pipe');
if (changed.error || untracked.error) {
  console.error(`gen:check needs git: ${(changed.error ?? untracked.error).message}`);
  process.exit(1);
}
const newFiles = untracked.stdout.trim();
if (newFiles) console.error(`Untracked generated files:\n${newFiles}`);
if (changed.status !== 0 || newFiles) {
  console.error('sdk/src/generated is stale: run `npm run generate -w @miniqueue/sdk` and commit the result.');
  process.exit(1);
}
console.log('sdk/src/generated matches openapi.yaml.');
