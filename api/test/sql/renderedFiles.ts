import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const API_DIR = fileURLToPath(new URL('../..', import.meta.url));
/** One file per named statement, as the broker sends it. */
export const STATEMENTS_DIR = path.join(API_DIR, 'src', 'db', 'queries', 'sql');
/** The schema the migrations build, as pg_dump writes it. */
export const SCHEMA_FILE = path.join(API_DIR, 'src', 'db', 'schema.sql');
export const RENDER_COMMAND = 'npm run sql:render -w @miniqueue/api';

const HEADER = (what: string) => `-- ${what}.\n-- Written by \`${RENDER_COMMAND}\`; a test fails when it is stale. Do not edit.\n`;

/** A statement's file: its text exactly as sent (pg prepares it under the file's name). */
export const statementFile = (name: string, text: string) => `${HEADER(`${name}: the statement as the broker prepares it (api/src/db/queries/)`)}${text}\n`;

export const schemaFile = (dump: string) => `${HEADER('The schema of a fully migrated database (api/migrations/)')}${dump}`;

/** The checked-in statement files, by statement name. */
export async function checkedInStatements(): Promise<Map<string, string>> {
  const files = (await readdir(STATEMENTS_DIR)).filter((file) => file.endsWith('.sql'));
  const entries = await Promise.all(
    files.map(async (file) => [file.slice(0, -'.sql'.length), await readFile(path.join(STATEMENTS_DIR, file), 'utf8')] as const),
  );
  return new Map(entries);
}

/** The names of the named statements written in api/src (`name: '…', text:`), wherever they are. */
export async function namesInSource(): Promise<string[]> {
  const sourceDir = path.join(API_DIR, 'src');
  const files = (await readdir(sourceDir, { recursive: true })).filter((file) => file.endsWith('.ts'));
  const names = new Set<string>();
  for (const file of files) {
    const source = await readFile(path.join(sourceDir, file), 'utf8');
    for (const match of source.matchAll(/\bname:\s*'([a-z][a-z0-9_]*)',\s*text:/g)) names.add(match[1]);
  }
  return [...names].sort();
}
