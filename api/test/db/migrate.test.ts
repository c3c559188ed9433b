import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { startEmbeddedDatabase } from '../../src/db/embedded.js';
import { createEmptyDatabase } from '../helpers/database.js';

describe('migrations', () => {
  it('instances starting together migrate once, under the advisory lock', async () => {
    const url = await createEmptyDatabase('mq_migrate');
    const results = await Promise.all([migrate(url), migrate(url), migrate(url)]);
    const applied = results.flat();
    expect(applied).toContain('0001_broker.sql');
    // Each migration was applied by exactly one of the three.
    expect(new Set(applied).size).toBe(applied.length);
    expect(await migrate(url)).toEqual([]);
  });
});

describe('embedded PostgreSQL', () => {
  it('keeps its data in the data directory across restarts', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'miniqueue-embedded-'));
    try {
      const first = await startEmbeddedDatabase(dir);
      await migrate(first.url);
      const client = new pg.Client({ connectionString: first.url });
      await client.connect();
      await client.query(`INSERT INTO topic (name) VALUES ('survivor')`);
      await client.end();
      await first.stop();

      const second = await startEmbeddedDatabase(dir);
      const again = new pg.Client({ connectionString: second.url });
      await again.connect();
      const { rows } = await again.query('SELECT name FROM topic');
      await again.end();
      await second.stop();
      expect(rows).toEqual([{ name: 'survivor' }]);
    } finally {
      await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  });
});
