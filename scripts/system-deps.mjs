#!/usr/bin/env node
// Runs before the test suites: every system program they drive (promtool, Chromium, PostgreSQL 15) must be there.
// As root with apt-get, a missing one is installed; otherwise the run stops at once with one line
// saying what to install, so no test is skipped or fails later for want of it.
import { spawnSync } from 'node:child_process';
import { plan } from './system-deps/plan.mjs';
import { onPath, requiredTools } from './system-deps/tools.mjs';

const missingTools = () => requiredTools().filter((tool) => !tool.present());

function aptGet(args) {
  const result = spawnSync('apt-get', args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

function stop(message) {
  console.error(message);
  process.exit(1);
}

const decision = plan({
  missing: missingTools(),
  isRoot: process.getuid?.() === 0,
  hasAptGet: Boolean(onPath('apt-get')),
});
if (decision.action === 'stop') stop(decision.message);
if (decision.action === 'install') {
  console.error(`Installing ${decision.packages.join(' ')} for the tests (apt-get) ...`);
  try {
    aptGet(['update', '-qq']);
    aptGet(['install', '-y', '-qq', '--no-install-recommends', ...decision.packages]);
  } catch (error) {
    stop(`Could not install ${decision.packages.join(' ')}: ${error.message}.`);
  }
  // The package may have installed, yet not put the program where the tests look for it.
  const stillMissing = missingTools();
  if (stillMissing.length > 0) stop(plan({ missing: stillMissing, isRoot: false, hasAptGet: false }).message);
}
