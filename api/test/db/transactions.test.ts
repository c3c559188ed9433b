import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPool, withTransaction, type Pool } from '../../src/db/pool.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { advisoryLockId } from '../../src/db/queries/advisoryLock.js';
import { createTestDatabase } from '../helpers/database.js';

describe('transactions', () => {
  let pool: Pool;
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    pool = createPool(databaseUrl, 2, 5_000, 300);
  });
  afterAll(() => pool.end());

  it('wait for a lock at most the lock timeout, inside the transaction only', async () => {
    const inside = await withTransaction(pool, async (tx) => (await tx.query<{ lock_timeout: string }>('SHOW lock_timeout')).rows[0]);
    expect(inside.lock_timeout).toBe('300ms');
    const { rows } = await pool.query<{ lock_timeout: string }>('SHOW lock_timeout');
    expect(rows[0].lock_timeout).toBe('0');
  });

  it('fail as "database busy" (503) when a lock is held longer than that', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN; LOCK TABLE topic IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const failure = await withTransaction(pool, (tx) => tx.query('SELECT count(*) FROM topic')).catch((error: unknown) => error);
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      await holder.end();
    }
  });
});

describe('advisory lock ids', () => {
  it('come from their names: stable, distinct, and exact as bound parameters', () => {
    const ids = (['migrations', 'admin-bootstrap', 'dispatcher'] as const).map(advisoryLockId);
    expect(new Set(ids).size).toBe(3);
    expect(ids.every(Number.isSafeInteger)).toBe(true);
    expect(advisoryLockId('dispatcher')).toBe(advisoryLockId('dispatcher'));
  });
});
