import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SDK = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The option interfaces whose every option README.md's tables must name. Each table follows a
 * `<!-- options: Name -->` line; a new option in one of these interfaces (or a table that names
 * one that is gone) fails this test until the README says what it does.
 */
const DOCUMENTED = ['MiniQueueOptions', 'RetryOptions', 'ConsumerOptions', 'MonitorOptions', 'CreateQueueOptions'];

/** Options every call takes, written once ("Every method also takes `{ signal, timeoutMs, retry }`"), not in each table. */
const CALL_OPTIONS = 'CallOptions';

/** The options each marked table of the README names: the backticked name at the start of each row. */
function readmeTables(): Map<string, string[]> {
  const lines = readFileSync(`${SDK}README.md`, 'utf8').split('\n');
  const tables = new Map<string, string[]>();
  lines.forEach((line, at) => {
    const marker = /^<!-- options: (\w+) -->$/.exec(line.trim());
    if (!marker) return;
    const rows = [];
    for (let next = at + 1; lines[next]?.startsWith('|'); next++) rows.push(lines[next]!);
    // The header row and the |---| row come first.
    const names = rows.slice(2).map((row) => /^\|\s*`([A-Za-z]+)`/.exec(row)?.[1] ?? `(no option name in: ${row})`);
    tables.set(marker[1]!, names);
  });
  return tables;
}

/** The options of each exported interface, read by the TypeScript compiler from the SDK's entry point. */
function exportedOptions(): Map<string, string[]> {
  const program = ts.createProgram([`${SDK}src/index.ts`], {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const entry = checker.getSymbolAtLocation(program.getSourceFile(`${SDK}src/index.ts`)!)!;
  const found = new Map<string, string[]>();
  for (const exported of checker.getExportsOfModule(entry)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.Interface)) continue;
    const properties = checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol));
    const own = properties.filter((property) =>
      (property.declarations ?? []).every((declaration) => !ts.isInterfaceDeclaration(declaration.parent) || declaration.parent.name.text !== CALL_OPTIONS),
    );
    found.set(
      exported.name,
      own.map((property) => property.name),
    );
  }
  return found;
}

describe("sdk/README.md's option tables", () => {
  const tables = readmeTables();
  const interfaces = exportedOptions();

  it('has a table for each option interface, and each is exported', () => {
    expect([...tables.keys()].sort()).toEqual([...DOCUMENTED].sort());
    for (const name of DOCUMENTED) expect(interfaces.has(name), `${name} is exported from src/index.ts`).toBe(true);
  });

  it.each(DOCUMENTED)('%s: every option documented, and no documented option that does not exist', (name) => {
    const documented = tables.get(name) ?? [];
    const declared = interfaces.get(name) ?? [];
    expect({
      undocumented: declared.filter((option) => !documented.includes(option)),
      unknown: documented.filter((option) => !declared.includes(option)),
    }).toEqual({
      undocumented: [],
      unknown: [],
    });
  });
});
