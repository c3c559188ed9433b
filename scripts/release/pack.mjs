#!/usr/bin/env node
// `npm run pack:all`: the SDK and the CLI packed as they are published (each package's prepack
// builds it), into dist/ at the root of this clone. Each tarball is also copied under a name
// without its version (dist/miniqueue-sdk.tgz, dist/miniqueue-cli.tgz), so the install command
// in the READMEs stays the same from one version to the next. The CLI depends on exactly the SDK
// of its version, which npm takes from the SDK tarball named beside it.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = path.join(root, 'dist');
const PACKAGES = [
  { workspace: 'sdk', file: 'miniqueue-sdk' },
  { workspace: 'cli', file: 'miniqueue-cli' },
];

mkdirSync(out, { recursive: true });
for (const { workspace, file } of PACKAGES) {
  const { version } = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
  const packed = spawnSync('npm', ['pack', '--pack-destination', out, '--loglevel=error'], {
    cwd: path.join(root, workspace),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (packed.status !== 0) process.exit(packed.status ?? 1);
  copyFileSync(path.join(out, `${file}-${version}.tgz`), path.join(out, `${file}.tgz`));
  console.log(`${path.join(out, `${file}-${version}.tgz`)} (also ${file}.tgz)`);
}
const tarball = (file) => path.join(out, `${file}.tgz`);
console.log(
  `\nInstall them anywhere:\n  the CLI:  npm install -g ${tarball('miniqueue-sdk')} ${tarball('miniqueue-cli')}\n  the SDK:  npm install ${tarball('miniqueue-sdk')}`,
);
