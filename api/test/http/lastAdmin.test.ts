import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { BOOTSTRAP_CLIENT, ensureAdmin } from '../../src/auth/bootstrap.js';
import { updateClient } from '../../src/auth/clients.js';
import { createPool, type Pool } from '../../src/db/pool.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { createTestDatabase } from '../helpers/database.js';

/**
 * The broker always keeps an admin client: the change that would take admin from the last one
 * (its scopes narrowed, or the client revoked) is refused with 409 `last_admin`, and a start
 * that finds no admin at all, whatever else the clients table holds, makes one.
 */
let mq: TestBroker;
beforeAll(async () => {
  mq = await startTestBroker();
});
afterAll(() => mq.stop());

const adminNames = async (db: Pool | TestBroker['pool']) =>
  (await db.query<{ name: string }>(`SELECT name FROM client WHERE revoked_at IS NULL AND 'admin' = ANY(scopes) ORDER BY name`)).rows.map((row) => row.name);

describe('the last admin client', () => {
  it('cannot lose its admin scope, nor be revoked: 409 last_admin, and nothing changes', async () => {
    expect(await adminNames(mq.pool)).toEqual([BOOTSTRAP_CLIENT]);
    const narrowed = await mq.patch(`/api/v1/clients/${BOOTSTRAP_CLIENT}`, { scopes: ['view'] }, mq.adminKey);
    expect(narrowed.status).toBe(409);
    expect(narrowed.body).toMatchObject({ status: 409, code: 'last_admin', errors: null });
    expect(narrowed.body.message).toContain(BOOTSTRAP_CLIENT);
    const revoked = await mq.del(`/api/v1/clients/${BOOTSTRAP_CLIENT}`, mq.adminKey);
    expect([revoked.status, revoked.body.code]).toEqual([409, 'last_admin']);
    expect(await adminNames(mq.pool)).toEqual([BOOTSTRAP_CLIENT]);
    expect((await mq.get('/api/v1/clients', mq.adminKey)).status).toBe(200);
  });

  it('may keep admin beside other scopes, and any admin may go while another stays', async () => {
    expect((await mq.patch(`/api/v1/clients/${BOOTSTRAP_CLIENT}`, { scopes: ['admin', 'view'] }, mq.adminKey)).status).toBe(200);
    const second = await mq.clientKey('second-admin', ['admin']);
    expect((await mq.patch(`/api/v1/clients/${BOOTSTRAP_CLIENT}`, { scopes: ['view'] }, second)).status).toBe(200);
    expect((await mq.patch('/api/v1/clients/second-admin', { scopes: ['view'] }, second)).body.code).toBe('last_admin');
    expect((await mq.patch(`/api/v1/clients/${BOOTSTRAP_CLIENT}`, { scopes: ['admin'] }, second)).status).toBe(200);
    expect((await mq.del('/api/v1/clients/second-admin', mq.adminKey)).status).toBe(204);
    expect(await adminNames(mq.pool)).toEqual([BOOTSTRAP_CLIENT]);
  });

  it('changes of clients without admin are not held to it', async () => {
    await mq.clientKey('plain', ['view']);
    expect((await mq.patch('/api/v1/clients/plain', { scopes: ['metrics'] }, mq.adminKey)).status).toBe(200);
    expect((await mq.del('/api/v1/clients/plain', mq.adminKey)).status).toBe(204);
  });

  it('two admins taking admin from each other at once: one of them stays', async () => {
    for (let round = 0; round < 10; round += 1) {
      for (const name of ['race-a', 'race-b']) await mq.pool.query(`DELETE FROM client WHERE name = $1`, [name]);
      await mq.clientKey('race-a', ['admin']);
      await mq.clientKey('race-b', ['admin']);
      await mq.pool.query(`UPDATE client SET scopes = '{view}' WHERE name = $1`, [BOOTSTRAP_CLIENT]);
      const results = await Promise.allSettled([updateClient(mq.pool, 'race-a', ['view']), updateClient(mq.pool, 'race-b', ['view'])]);
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      expect(await adminNames(mq.pool)).toHaveLength(1);
      await mq.pool.query(`UPDATE client SET scopes = '{admin}' WHERE name = $1`, [BOOTSTRAP_CLIENT]);
    }
  });
});

describe('bootstrap, whatever state it meets', () => {
  let pool: Pool;
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase();
    pool = createPool(url, 4, 5_000, 5_000);
  });
  afterAll(() => pool.end());

  const keyWorks = async (key: string) => {
    const broker = await startTestBroker({ databaseUrl: url, adminKey: key });
    try {
      return (await broker.get('/api/v1/clients', key)).status;
    } finally {
      await broker.stop();
    }
  };

  it('a bootstrap-admin without admin, and no admin at all: it gets admin and a new key, shown once', async () => {
    expect(await ensureAdmin(pool)).toEqual(expect.stringMatching(/^mq_/));
    await pool.query(`UPDATE client SET scopes = '{view}' WHERE name = $1`, [BOOTSTRAP_CLIENT]);
    const key = await ensureAdmin(pool);
    expect(key).toEqual(expect.stringMatching(/^mq_/));
    expect(await adminNames(pool)).toEqual([BOOTSTRAP_CLIENT]);
    expect(await ensureAdmin(pool)).toBeNull();
    expect(await keyWorks(key as string)).toBe(200);
  });

  it('a configured key whose bootstrap-admin was revoked: it is bootstrap-admin again', async () => {
    const configured = newApiKey().key;
    await ensureAdmin(pool, configured);
    await pool.query(`UPDATE client SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL`, [BOOTSTRAP_CLIENT]);
    await expect(ensureAdmin(pool, configured)).resolves.toBeNull();
    expect(await adminNames(pool)).toEqual([BOOTSTRAP_CLIENT]);
    expect(await keyWorks(configured)).toBe(200);
  });

  it('a configured key that another client holds is a clear error at boot, without the key', async () => {
    const { rows } = await pool.query<{ key_hash: Buffer }>(`SELECT key_hash FROM client WHERE name = $1 AND revoked_at IS NULL`, [BOOTSTRAP_CLIENT]);
    const taken = newApiKey();
    await pool.query(`INSERT INTO client (id, name, scopes, key_hash, key_prefix) VALUES (gen_random_uuid(), 'holder', '{view}', $1, $2)`, [
      taken.hash,
      taken.prefix,
    ]);
    const refused = ensureAdmin(pool, taken.key);
    await expect(refused).rejects.toThrow(/MINIQUEUE_BOOTSTRAP_ADMIN_KEY is the key of the client holder/);
    await expect(refused.catch((error: Error) => error.message)).resolves.not.toContain(taken.key);
    // Nothing changed: bootstrap-admin keeps its key.
    const after = await pool.query<{ key_hash: Buffer }>(`SELECT key_hash FROM client WHERE name = $1 AND revoked_at IS NULL`, [BOOTSTRAP_CLIENT]);
    expect(after.rows[0].key_hash.equals(rows[0].key_hash)).toBe(true);
  });

  it('instances starting together on an empty database make one admin', async () => {
    const fresh = new pg.Pool({ connectionString: await createTestDatabase(), max: 4 });
    try {
      const keys = await Promise.all(Array.from({ length: 4 }, () => ensureAdmin(fresh as unknown as Pool)));
      expect(keys.filter((key) => key !== null)).toHaveLength(1);
    } finally {
      await fresh.end();
    }
  });
});
