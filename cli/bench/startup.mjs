#!/usr/bin/env node
// How long `miniqueue` takes to start: `--version` (no broker) and one broker call (`whoami`),
// each the median of N runs after one warm-up run. Not a test: the figures depend on the machine.
//
//   npm run bench:startup -w @miniqueue/cli                       # the CLI of this checkout
//   node cli/bench/startup.mjs --bin "$(command -v miniqueue)"    # an installed CLI
//
// The broker call needs MINIQUEUE_URL and MINIQUEUE_API_KEY (or a saved profile); without them
// only --version is measured.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TARGETS = { version: 0.4, brokerCall: 0.6 };
const here = path.dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    bin: { type: 'string', default: path.join(here, '..', 'bin', 'run.js') },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const bin = path.resolve(values.bin);
// A .js entry point runs under this node; anything else (an installed shim) is executed as it is.
const command = bin.endsWith('.js') ? [process.execPath, bin] : [bin];

function once(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command[0], [...command.slice(1), ...args], {
    encoding: 'utf8',
    env: { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0) throw new Error(`miniqueue ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return seconds;
}

function measure(args) {
  once(args); // warm-up: file system caches, and tsx's compile cache when running from source
  const samples = Array.from({ length: runs }, () => once(args)).sort((a, b) => a - b);
  const at = (q) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { median: at(0.5), min: samples[0], p90: at(0.9), runs };
}

const results = { bin, version: measure(['--version']) };
const canCallBroker = Boolean(process.env.MINIQUEUE_URL && process.env.MINIQUEUE_API_KEY) || Boolean(process.env.MINIQUEUE_PROFILE);
results.brokerCall = canCallBroker ? measure(['whoami', '--json']) : null;

if (values.json) {
  console.log(JSON.stringify(results, null, 2));
} else {
  const line = (name, figures, target) =>
    figures
      ? `${name.padEnd(20)} median ${figures.median.toFixed(3)} s  (min ${figures.min.toFixed(3)}, p90 ${figures.p90.toFixed(3)}, ${figures.runs} runs)  target < ${target} s: ${figures.median < target ? 'met' : 'NOT met'}`
      : `${name.padEnd(20)} skipped: set MINIQUEUE_URL and MINIQUEUE_API_KEY to measure it`;
  console.log(`miniqueue startup, ${bin}`);
  console.log(line('--version', results.version, TARGETS.version));
  console.log(line('whoami (one call)', results.brokerCall, TARGETS.brokerCall));
}
