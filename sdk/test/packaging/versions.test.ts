/**
 * The SDK and the CLI are released with the API they speak: their versions are the contract's
 * `info.version`, and the CLI depends on exactly the SDK of that version.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './npm.js';

const manifest = (workspace: string) => JSON.parse(readFileSync(path.join(REPO, workspace, 'package.json'), 'utf8'));

/** `info.version` of openapi.yaml: the first `version:` indented under the top-level `info:`. */
function contractVersion(): string {
  const spec = readFileSync(path.join(REPO, 'openapi.yaml'), 'utf8');
  const info = /^info:\n((?:[ \t]+.*\n|\n)*)/m.exec(spec)?.[1] ?? '';
  const version = /^ {2}version:\s*['"]?([^'"\s]+)/m.exec(info)?.[1];
  if (!version) throw new Error('openapi.yaml has no info.version');
  return version;
}

describe('versions', () => {
  const api = contractVersion();

  it('the SDK is versioned with the API', () => {
    expect(manifest('sdk').version).toBe(api);
  });

  it('the CLI is versioned with the API', () => {
    expect(manifest('cli').version).toBe(api);
  });

  it('the CLI depends on exactly that SDK', () => {
    expect(manifest('cli').dependencies['@miniqueue/sdk']).toBe(api);
  });

  it('both are publishable', () => {
    expect(manifest('sdk').private).toBeUndefined();
    expect(manifest('cli').private).toBeUndefined();
  });
});
