// A workspace reaches another only through that one's package name (its package.json "exports"),
// never by a relative path into its tree: a path import ties a workspace to the repository's
// layout and to the other's private files, and hides the dependency from npm and from knip.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
// Not the workspace's own code: installed packages, build output, caches and tool folders.
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage']);
// Vitest loads the files its config names (globalSetup, setupFiles) as modules too.
const CONFIG = /^vite(st)?\.config\.(ts|mts|js|mjs)$/;
const QUOTED_PATH = /['"`](\.\.?\/[^'"`]*)['"`]/g;

function codeFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : codeFiles(full);
    return CODE.test(entry.name) ? [full] : [];
  });
}

/** Every import, export-from, import() and require() of the file, and, in a Vitest config, every quoted relative path. */
function specifiers(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const found = importedFiles.map((imported) => ({ spec: imported.fileName, pos: imported.pos }));
  if (CONFIG.test(path.basename(file))) for (const match of text.matchAll(QUOTED_PATH)) found.push({ spec: match[1], pos: match.index });
  return found.filter(({ spec }) => spec.startsWith('./') || spec.startsWith('../'));
}

const inside = (dir, target) => !path.relative(dir, target).startsWith('..');

/**
 * `file:line imports 'spec'` for each relative import from one of the root's npm workspaces into
 * another. The repository's own tools outside every workspace (scripts/, prometheus/) are no
 * package, so a test that checks one of them still reaches it by path.
 */
export function crossWorkspaceImports(root) {
  const { workspaces = [] } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const homes = workspaces.map((workspace) => path.join(root, workspace));
  return homes.flatMap((home) =>
    codeFiles(home).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return specifiers(file, text)
        .filter(({ spec }) => {
          const target = path.resolve(path.dirname(file), spec);
          return !inside(home, target) && homes.some((other) => inside(other, target));
        })
        .map(({ spec, pos }) => `${path.relative(root, file)}:${text.slice(0, pos).split('\n').length} imports '${spec}'`);
    }),
  );
}
