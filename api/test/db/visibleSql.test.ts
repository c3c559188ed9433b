import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../helpers/database.js';
import { namedStatements } from '../sql/namedStatements.js';
import { checkedInStatements, namesInSource, RENDER_COMMAND, SCHEMA_FILE, schemaFile, statementFile } from '../sql/renderedFiles.js';
import { dumpMigratedSchema, dumpUnavailable } from '../sql/schemaDump.js';
import type { StatementRecorder } from '../sql/statementRecorder.js';

/**
 * The SQL a reviewer reads as a diff: every named statement (test/sql/namedStatements.ts says
 * which calls render which variants) in api/src/db/queries/sql/<name>.sql, and the migrated
 * schema in api/src/db/schema.sql. Stale files fail here, as gen:check fails for the SDK.
 */
describe('visible SQL', () => {
  let recorder: StatementRecorder;
  let checkedIn: Map<string, string>;
  const stale = `is stale: run \`${RENDER_COMMAND}\` and commit the result`;

  beforeAll(async () => {
    recorder = await namedStatements();
    checkedIn = await checkedInStatements();
  });

  it('renders every named statement written in api/src, each with one text', async () => {
    expect(recorder.conflicts).toEqual([]);
    // A name missing here is a query function test/sql/namedStatements.ts does not call yet.
    expect([...recorder.statements.keys()].sort()).toEqual(await namesInSource());
  });

  it('has the checked-in text of every statement, and no file for a statement that is gone', () => {
    expect([...checkedIn.keys()].sort(), `api/src/db/queries/sql ${stale}`).toEqual([...recorder.statements.keys()].sort());
    for (const [name, text] of recorder.statements) {
      expect(checkedIn.get(name), `${name}.sql ${stale}`).toBe(statementFile(name, text));
    }
  });

  describe('on a migrated database', () => {
    let client: pg.Client;

    beforeAll(async () => {
      client = new pg.Client({ connectionString: await createTestDatabase() });
      await client.connect();
    });
    afterAll(() => client?.end());

    it('prepares every rendered statement (each is valid SQL on the current schema)', async () => {
      const refused: string[] = [];
      for (const [name, text] of recorder.statements) {
        await client.query(`PREPARE ${name} AS ${text}`).catch((error: Error) => refused.push(`${name}: ${error.message}`));
      }
      expect(refused).toEqual([]);
    });
  });

  it('has the schema of a fully migrated database, as pg_dump writes it', async () => {
    expect(dumpUnavailable(), 'the schema dump needs Debian PostgreSQL 15').toBeNull();
    const expected = schemaFile(await dumpMigratedSchema());
    expect(await readFile(SCHEMA_FILE, 'utf8'), `api/src/db/schema.sql ${stale}`).toBe(expected);
  });
});
