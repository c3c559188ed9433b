// The GitHub workflows under .github/workflows/, read as GitHub reads them: every action is pinned
// to a full commit (a tag can be moved to other code), permissions are the least each job needs,
// and the release job, which holds an OIDC token, runs only the install scripts package.json allows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folder = path.join(root, '.github', 'workflows');
const workflows = readdirSync(folder)
  .filter((file) => /\.ya?ml$/.test(file))
  .map((file) => {
    const text = readFileSync(path.join(folder, file), 'utf8');
    return { file, text, workflow: parse(text) };
  });
const jobsOf = (workflow) => Object.entries(workflow.jobs ?? {});
const runsOf = (job) => (job.steps ?? []).map((step) => step.run).filter((run) => typeof run === 'string');

/** `owner/repo[/path]@<40 hex>`, a local action (`./…`) or an image by digest. */
const PINNED = /^(?:[\w.-]+\/[\w.-]+(?:\/[^@\s]+)?@[0-9a-f]{40}|\.\/\S+|docker:\/\/\S+@sha256:[0-9a-f]{64})$/;
/** npm commands that install packages, and so run their install scripts unless told not to. */
const INSTALLS = /\b(?:npm\s+(?:ci|install|i|add|exec|x|rebuild)|npx)\b/;
const RUN_ALLOWED_SCRIPTS = 'node scripts/release/rebuildAllowed.mjs';

describe('the GitHub workflows', () => {
  it('are there to check', () => assert.ok(workflows.length > 0, `no workflow in ${folder}`));

  it('pin every action to a full commit SHA, with its tag as a comment', () => {
    const unpinned = [];
    for (const { file, text, workflow } of workflows) {
      for (const [name, job] of jobsOf(workflow)) {
        const uses = [job.uses, ...(job.steps ?? []).map((step) => step.uses)].filter((use) => use !== undefined);
        for (const use of uses) if (!PINNED.test(use)) unpinned.push(`${file} ${name}: ${use}`);
      }
      for (const line of text.split('\n')) {
        const sha = /^\s*(?:-\s*)?uses:\s*\S+@[0-9a-f]{40}(.*)$/.exec(line);
        if (sha && !/^\s+#\s*v\d\S*/.test(sha[1])) unpinned.push(`${file}: no tag comment on "${line.trim()}"`);
      }
    }
    assert.deepEqual(unpinned, [], 'actions not pinned to a commit');
  });

  it('grant nothing to every job by default, and the OIDC token only to a job that publishes', () => {
    const excess = [];
    for (const { file, workflow } of workflows) {
      const top = workflow.permissions;
      const readOnly = top !== undefined && (Object.keys(top).length === 0 || (Object.keys(top).length === 1 && top.contents === 'read'));
      if (!readOnly) excess.push(`${file}: top-level permissions ${JSON.stringify(top)}`);
      for (const [name, job] of jobsOf(workflow)) {
        const publishes = runsOf(job).some((run) => /\bnpm\s+publish\b/.test(run));
        if (job.permissions?.['id-token'] === 'write' && !publishes) excess.push(`${file} ${name}: id-token without publishing`);
        if (job.permissions === undefined && !readOnly) excess.push(`${file} ${name}: inherits ${JSON.stringify(top)}`);
      }
    }
    assert.deepEqual(excess, [], 'permissions beyond what a job needs');
  });

  it('install in the release workflow without scripts, then run only those package.json allows', () => {
    const release = workflows.find(({ file }) => /^release\.ya?ml$/.test(file));
    assert.ok(release, 'release.yml');
    const broken = [];
    for (const [name, job] of jobsOf(release.workflow)) {
      const runs = runsOf(job);
      const commands = runs.flatMap((run) => run.split('\n')).map((line) => line.trim());
      const installs = commands.filter((command) => INSTALLS.test(command));
      for (const command of installs) if (!/--ignore-scripts\b/.test(command)) broken.push(`${name}: "${command}" runs install scripts`);
      const lastInstall = commands.findLastIndex((command) => INSTALLS.test(command));
      const allowedRun = commands.indexOf(RUN_ALLOWED_SCRIPTS);
      if (installs.length > 0 && allowedRun < lastInstall) broken.push(`${name}: no "${RUN_ALLOWED_SCRIPTS}" after its last install`);
    }
    assert.deepEqual(broken, [], 'the release job and install scripts');
  });

  it('run exactly the install scripts that the root package.json allows', () => {
    const { allowScripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    const allowed = Object.keys(allowScripts).filter((name) => allowScripts[name] === true);
    assert.ok(allowed.length > 0 && allowed.length < Object.keys(allowScripts).length, 'some allowed, some denied');
    const dryRun = spawnSync(process.execPath, [path.join(root, 'scripts/release/rebuildAllowed.mjs'), '--dry-run'], { encoding: 'utf8' });
    assert.equal(dryRun.status, 0, dryRun.stderr);
    assert.equal(dryRun.stdout.trim(), `npm rebuild --foreground-scripts ${allowed.join(' ')}`);
  });
});
