// Rewrites api/src/db/queries/sql/*.sql and api/src/db/schema.sql from the code and the
// migrations (npm run sql:render -w @miniqueue/api); test/db/visibleSql.test.ts holds them to it.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { namedStatements } from './namedStatements.js';
import { checkedInStatements, SCHEMA_FILE, schemaFile, statementFile, STATEMENTS_DIR } from './renderedFiles.js';
import { dumpMigratedSchema } from './schemaDump.js';

const recorder = await namedStatements();
if (recorder.conflicts.length > 0) throw new Error(`Sent with more than one text: ${recorder.conflicts.join(', ')}`);
await mkdir(STATEMENTS_DIR, { recursive: true });
for (const name of (await checkedInStatements()).keys()) {
  if (!recorder.statements.has(name)) await rm(path.join(STATEMENTS_DIR, `${name}.sql`));
}
for (const [name, text] of recorder.statements) await writeFile(path.join(STATEMENTS_DIR, `${name}.sql`), statementFile(name, text));
await writeFile(SCHEMA_FILE, schemaFile(await dumpMigratedSchema()));
console.log(`Wrote ${recorder.statements.size} statements to ${STATEMENTS_DIR} and the schema to ${SCHEMA_FILE}.`);
