#!/usr/bin/env node
// `npm audit --omit=dev`, held to docs/operations.md: every advisory it reports for what ships must be
// listed under "Dependency advisories" there, with why it is accepted; any other fails the build.
// When the registry's advisory endpoint does not answer, that is said loudly: nothing was checked.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

// A saved `npm audit --omit=dev --json` report may be given instead (to check this script).
const output = process.argv[2]
  ? readFileSync(process.argv[2], 'utf8')
  : spawnSync('npm', ['audit', '--omit=dev', '--json'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
let report;
try {
  report = JSON.parse(output);
} catch {
  report = { message: output.trim().split('\n').pop() || 'no output' };
}
if (!report.vulnerabilities) {
  console.warn(`npm audit --omit=dev: the advisory endpoint did not answer (${report.message || report.error?.summary || 'no answer'}).`);
  console.warn('ADVISORIES WERE NOT CHECKED on this machine; run `npm audit --omit=dev` where the registry answers it.');
  process.exit(0);
}

const advisories = new Map();
for (const [name, vulnerability] of Object.entries(report.vulnerabilities ?? {})) {
  for (const via of vulnerability.via ?? []) {
    if (typeof via !== 'object' || !via.url) continue;
    const id = via.url.split('/').pop();
    advisories.set(id, `${id} ${via.severity} ${name} ${via.range}: ${via.title}`);
  }
}
const readme = readFileSync(new URL('../docs/operations.md', import.meta.url), 'utf8');
const section = readme.split(/^## Dependency advisories$/m)[1]?.split(/^## /m)[0] ?? '';
const unexplained = [...advisories].filter(([id]) => !section.includes(id));
for (const [id, line] of advisories) console.log(`${section.includes(id) ? 'accepted' : 'NEW     '} ${line}`);
if (unexplained.length > 0) {
  console.error(
    `npm audit --omit=dev: ${unexplained.length} advisory(ies) not explained under "Dependency advisories" in docs/operations.md: upgrade, or explain.`,
  );
  process.exit(1);
}
console.log(`npm audit --omit=dev: ${advisories.size === 0 ? 'no advisories' : `${advisories.size} advisories, each explained in docs/operations.md`}.`);
