/**
 * The release workflow publishes both packages, together, at the tag's version, with provenance;
 * scripts/release/checkVersion.mjs refuses a tag the manifests do not match.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO } from './npm.js';
// @ts-expect-error a plain ES module of the release scripts, without declarations
import { releaseProblems } from '../../../scripts/release/checkVersion.mjs';

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}
const workflow = parse(readFileSync(path.join(REPO, '.github/workflows/release.yml'), 'utf8'));
const steps: Step[] = workflow.jobs.publish.steps;
const runs = steps.map((step) => step.run ?? '');
const indexOf = (pattern: RegExp) => runs.findIndex((text) => pattern.test(text));

describe('the release workflow', () => {
  it('runs on version tags only', () => {
    expect(workflow.on).toEqual({ push: { tags: ['v*.*.*'] } });
  });

  it('may mint the OIDC token provenance needs, and nothing more: only the publishing job, which reads the code', () => {
    expect(workflow.permissions).toEqual({});
    expect(workflow.jobs.publish.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
  });

  it('checks the tag against both versions, then packs, then publishes the SDK before the CLI, both with provenance', () => {
    const check = indexOf(/checkVersion\.mjs "\$GITHUB_REF_NAME"/);
    const pack = indexOf(/^npm run pack:all$/);
    const publish = steps.find((step) => /npm publish/.test(step.run ?? ''))!;
    const publishes = publish.run!.split('\n').filter((line) => line.includes('npm publish'));
    expect(check).toBeGreaterThanOrEqual(0);
    expect(pack).toBeGreaterThan(check);
    expect(runs.indexOf(publish.run!)).toBeGreaterThan(pack);
    expect(publishes).toEqual([
      'npm publish "dist/miniqueue-sdk-$version.tgz" --provenance --access public',
      'npm publish "dist/miniqueue-cli-$version.tgz" --provenance --access public',
    ]);
    expect(publish.env).toEqual({ NODE_AUTH_TOKEN: '${{ secrets.NPM_TOKEN }}' });
  });

  it('uses the Node the packages support, with the npm registry', () => {
    const node = steps.find((step) => step.uses?.startsWith('actions/setup-node@'))!;
    expect(node.with).toEqual({ 'node-version': '20.19', 'registry-url': 'https://registry.npmjs.org' });
  });
});

describe('checkVersion', () => {
  const sdk = { version: '1.2.3' };
  const cli = { version: '1.2.3', dependencies: { '@miniqueue/sdk': '1.2.3' } };

  it('accepts a tag that is the version of both', () => {
    expect(releaseProblems('v1.2.3', sdk, cli)).toEqual([]);
  });

  it('names every mismatch', () => {
    expect(releaseProblems('v1.2.4', sdk, cli)).toEqual([
      '@miniqueue/sdk is 1.2.3, not 1.2.4',
      '@miniqueue/cli is 1.2.3, not 1.2.4',
      '@miniqueue/cli depends on @miniqueue/sdk 1.2.3, not exactly 1.2.4',
    ]);
    expect(releaseProblems('v1.2.3', sdk, { ...cli, dependencies: { '@miniqueue/sdk': '^1.2.3' } })).toEqual([
      '@miniqueue/cli depends on @miniqueue/sdk ^1.2.3, not exactly 1.2.3',
    ]);
    expect(releaseProblems('main', sdk, cli)).toEqual(['the tag "main" is not a version tag such as v1.2.3']);
  });

  it('the manifests of this commit make one release', () => {
    const manifest = (workspace: string) => JSON.parse(readFileSync(path.join(REPO, workspace, 'package.json'), 'utf8'));
    expect(releaseProblems(`v${manifest('sdk').version}`, manifest('sdk'), manifest('cli'))).toEqual([]);
  });
});
