#!/usr/bin/env node
// After `npm ci --ignore-scripts`: runs the install scripts of the packages that the root
// package.json's `allowScripts` allows (`true`), and of no other. The release job runs Node 20's
// npm 10, which does not read `allowScripts`: installing with scripts on there would also run the
// scripts the project denies, in the job that holds the OIDC token npm provenance is signed with.
// `--dry-run` prints the command instead of running it.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const allowed = Object.entries(manifest.allowScripts ?? {})
  .filter(([, allows]) => allows === true)
  .map(([name]) => name);

// A bare `npm rebuild` would run every package's scripts: with nothing allowed, nothing runs.
if (allowed.length === 0) process.exit(0);
const args = ['rebuild', '--foreground-scripts', ...allowed];
if (process.argv.includes('--dry-run')) {
  console.log(['npm', ...args].join(' '));
  process.exit(0);
}
const rebuilt = spawnSync('npm', args, { cwd: root, stdio: 'inherit' });
process.exit(rebuilt.status ?? 1);
