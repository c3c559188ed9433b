/**
 * Every README tells the same install route, the one packages.test.ts runs: each `npm install`
 * (or `npm i`) and `npm run pack…` they show is one of INSTALL_ROUTE's commands. A README that
 * says `npm install @miniqueue/sdk` before that name is published fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSTALL_ROUTE, REPO } from './npm.js';

const READMES = [
  'README.md',
  'sdk/README.md',
  'cli/README.md',
  'dashboard/README.md',
  'infra/README.md',
  ...readdirSync(path.join(REPO, 'docs')).map((f) => `docs/${f}`),
];
/** A command that installs or packs MiniQueue's packages: what a reader would copy. */
const INSTALL = /\bnpm (?:install|i|add|run pack)\b[^`\n#]*/g;
/** Installing the project's own dependencies in the clone is not installing MiniQueue. */
const OWN_DEPENDENCIES = /^npm (?:install|i)$/;

function installLines(file: string): string[] {
  const text = readFileSync(path.join(REPO, file), 'utf8');
  return [...text.matchAll(INSTALL)].map(([line]) => line.trim()).filter((line) => !OWN_DEPENDENCIES.test(line));
}

describe('install lines', () => {
  const allowed = new Set<string>(Object.values(INSTALL_ROUTE));

  for (const file of READMEs()) {
    it(`${file} shows only the documented route`, () => {
      expect(installLines(file).filter((line) => !allowed.has(line))).toEqual([]);
    });
  }

  it('the main README and the two packages’ READMEs show it', () => {
    expect(installLines('README.md')).toEqual(expect.arrayContaining([INSTALL_ROUTE.pack, INSTALL_ROUTE.cli]));
    expect(installLines('sdk/README.md')).toEqual(expect.arrayContaining([INSTALL_ROUTE.pack, INSTALL_ROUTE.sdk]));
    expect(installLines('cli/README.md')).toEqual(expect.arrayContaining([INSTALL_ROUTE.pack, INSTALL_ROUTE.cli]));
  });
});

function READMEs(): string[] {
  return READMES.filter((file) => file.endsWith('.md'));
}
