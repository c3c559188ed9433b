#!/usr/bin/env node
// Before a release publishes anything: the tag (v1.2.3) must be the version of the SDK and of
// the CLI, and the CLI must depend on exactly that SDK, so the two are always published together
// at one version. Exits 1 with every mismatch named.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Every reason the tag and the manifests do not make one release; empty when they do. */
export function releaseProblems(tag, sdk, cli) {
  const version = /^v(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(tag ?? '')?.[1];
  if (!version) return [`the tag ${JSON.stringify(tag)} is not a version tag such as v1.2.3`];
  const problems = [];
  if (sdk.version !== version) problems.push(`@miniqueue/sdk is ${sdk.version}, not ${version}`);
  if (cli.version !== version) problems.push(`@miniqueue/cli is ${cli.version}, not ${version}`);
  const wanted = cli.dependencies?.['@miniqueue/sdk'];
  if (wanted !== version) problems.push(`@miniqueue/cli depends on @miniqueue/sdk ${wanted}, not exactly ${version}`);
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const manifest = (workspace) => JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8'));
  const problems = releaseProblems(process.argv[2], manifest('sdk'), manifest('cli'));
  for (const problem of problems) console.error(`Not releasable: ${problem}`);
  if (problems.length > 0) process.exit(1);
  console.log(`Releasing @miniqueue/sdk and @miniqueue/cli ${process.argv[2].slice(1)}`);
}
