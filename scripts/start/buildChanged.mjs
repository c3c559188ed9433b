// Rebuilds a workspace only when something it is built from changed since its last build.
// The three builds use three tools (esbuild + tsc for the SDK, vite for the dashboard, tsc for
// the API), and vite has no incremental mode, so the decision is made here, once, the same way
// for all: a signature of every input file (path, size, mtime) is kept (in .tmp/build/) after a
// successful build; a start whose inputs give the same signature, with the output still there,
// builds nothing. Paths are in the signature, so a deleted or added file counts as a change too.
// Comparing file stats costs a few milliseconds; the builds it skips cost 20-30 s.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Every file under `entries` (files or folders), sorted, skipping build outputs and dependencies. */
function filesUnder(root, entries) {
  const files = [];
  const walk = (relative) => {
    const absolute = path.join(root, relative);
    if (!existsSync(absolute)) return;
    if (!statSync(absolute).isDirectory()) return files.push(relative);
    for (const name of readdirSync(absolute)) if (name !== 'node_modules') walk(path.join(relative, name));
  };
  entries.forEach(walk);
  return files.sort();
}

/** A digest of the inputs' paths, sizes and modification times: equal means nothing changed. */
export function signatureOf(root, inputs) {
  const hash = createHash('sha256');
  for (const file of filesUnder(root, inputs)) {
    const { size, mtimeMs } = statSync(path.join(root, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/**
 * Builds `target` (its `command`, else `npm run build -w <workspace>`) unless its output exists
 * and its inputs are as they were at its last build. Returns whether it built.
 */
export function buildIfChanged(root, target, log = console.log) {
  const stampFile = path.join(root, target.stamp);
  const signature = signatureOf(root, target.inputs);
  const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
  if (previous === signature && existsSync(path.join(root, target.output))) {
    log(`[miniqueue] ${target.workspace}: unchanged since its last build`);
    return false;
  }
  log(`[miniqueue] ${target.workspace}: building (${previous ? 'its sources changed' : 'no build yet'})`);
  // An incremental compiler trusts its cache over the outputs: without them, it starts afresh.
  if (target.cache && !existsSync(path.join(root, target.output))) rmSync(path.join(root, target.cache), { force: true });
  const [command, ...args] = target.command ?? ['npm', 'run', 'build', '-w', target.workspace];
  const built = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, `${signature}\n`);
  return true;
}
