import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every module of src/ → the src/ modules it imports (type-only imports included: they tie layers too). */
function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(path.join(SRC, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => path.relative(SRC, path.resolve(SRC, path.dirname(file), name)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The import circles, each once, as the path round it (depth-first search, the stack is the path). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const visit = (file: string, stack: string[]) => {
    const at = stack.indexOf(file);
    if (at !== -1) return void found.push([...stack.slice(at), file]);
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) visit(next, [...stack, file]);
    done.add(file);
  };
  for (const file of graph.keys()) visit(file, []);
  return found;
}

const graph = importGraph();

/** The statement that gives held messages back to PENDING: only the broker runs it (broker/putBack.ts). */
const RELEASE_STATEMENT = 'db/queries/messageRelease.ts';

/** Files outside broker/ that import the release statement, as `file → statement`. */
const releasingOutsideBroker = (graph: Map<string, string[]>) =>
  [...graph].filter(([file, targets]) => !file.startsWith('broker/') && targets.includes(RELEASE_STATEMENT)).map(([file]) => `${file} → ${RELEASE_STATEMENT}`);

describe('the layers of src/', () => {
  it('has no import circles', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const looped = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(circles(looped)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('keeps realtime off the HTTP layer: it declares the context it needs (realtime/context.ts)', () => {
    const offending = [...graph].flatMap(([file, targets]) =>
      file.startsWith('realtime/') ? targets.filter((target) => target.startsWith('http/')).map((target) => `${file} → ${target}`) : [],
    );
    expect(offending).toEqual([]);
  });

  it('puts held messages back only through the broker, which announces them (broker/putBack.ts)', () => {
    expect(graph.get('broker/putBack.ts')).toContain(RELEASE_STATEMENT);
    expect(releasingOutsideBroker(graph)).toEqual([]);
  });

  it('finds a put-back outside the broker when there is one', () => {
    const graph = new Map([
      ['broker/putBack.ts', [RELEASE_STATEMENT]],
      ['push/pushWorker.ts', ['broker/putBack.ts', RELEASE_STATEMENT]],
    ]);
    expect(releasingOutsideBroker(graph)).toEqual([`push/pushWorker.ts → ${RELEASE_STATEMENT}`]);
  });

  it('keeps the broker core off the HTTP layer', () => {
    const core = ['brokerCore.ts', 'metrics.ts', ...[...graph.keys()].filter((file) => /^(broker|stats|push|jobs|lifecycle)\//.test(file))];
    const offending = core.flatMap((file) => (graph.get(file) ?? []).filter((target) => target.startsWith('http/')).map((target) => `${file} → ${target}`));
    expect(offending).toEqual([]);
  });
});
