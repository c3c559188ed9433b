import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { ensureAdmin } from '../../src/auth/bootstrap.js';
import { eventually } from '../helpers/eventually.js';

let a: TestBroker;
let b: TestBroker;
beforeAll(async () => {
  a = await startTestBroker();
  b = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
});
afterAll(async () => {
  await b.stop();
  await a.stop();
});

describe('clients and API keys', () => {
  it('creates a client whose key is shown once and stored only as a hash', async () => {
    const created = await a.post('/api/v1/clients', { name: 'Email-Service', scopes: ['consume:email-queue', 'VIEW'] }, a.adminKey);
    expect(created.status).toBe(201);
    const { api_key: key, key_prefix: prefix } = created.body;
    expect(created.body.name).toBe('email-service');
    expect(created.body.scopes).toEqual(['consume:email-queue', 'view']);
    expect(key).toMatch(/^mq_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(key.slice(0, 12));
    const listed = await a.get('/api/v1/clients', a.adminKey);
    expect(JSON.stringify(listed.body)).not.toContain(key);
    const { rows } = await a.pool.query('SELECT key_hash FROM client WHERE name = $1', ['email-service']);
    expect(rows[0].key_hash.toString('hex')).not.toContain(Buffer.from(key).toString('hex'));
    expect((await a.post('/api/v1/clients', { name: 'email-service', scopes: ['view'] }, a.adminKey)).status).toBe(409);
  });

  it('refuses unknown scopes with a field error', async () => {
    const response = await a.post('/api/v1/clients', { name: 'bad', scopes: ['view', 'publish:'] }, a.adminKey);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ field: 'scopes[1]', message: 'unknown scope "publish:"' }]);
  });

  it('rotation kills the old key at once, on every instance', async () => {
    const key = await a.clientKey('rotating', ['view']);
    expect((await b.get('/api/v1/auth/me', key)).status).toBe(200); // cached on b now
    const rotated = await a.post('/api/v1/clients/rotating/rotate', undefined, a.adminKey);
    expect(rotated.status).toBe(200);
    expect(rotated.body.api_key).not.toBe(key);
    expect((await a.get('/api/v1/auth/me', key)).status).toBe(401);
    await eventually(async () => (await b.get('/api/v1/auth/me', key)).status === 401, 'the rotation heard on b', 3_000);
    expect((await b.get('/api/v1/auth/me', rotated.body.api_key)).body).toEqual({ name: 'rotating', kind: 'client', scopes: ['view'] });
  });

  it('the instance that rotates or revokes a key refuses it from its next request on, notification or not', async () => {
    const c = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
    try {
      // c hears no client changes from the database, as when the notification is still on its way.
      c.broker.context.bus.removeAllListeners('auth');
      const rotating = await c.clientKey('rotating-here', ['view']);
      const revoked = await c.clientKey('revoked-here', ['view']);
      for (const key of [rotating, revoked]) expect((await c.get('/api/v1/auth/me', key)).status).toBe(200); // cached on c
      expect((await c.post('/api/v1/clients/rotating-here/rotate', undefined, c.adminKey)).status).toBe(200);
      expect((await c.get('/api/v1/auth/me', rotating)).status).toBe(401);
      expect((await c.del('/api/v1/clients/revoked-here', c.adminKey)).status).toBe(204);
      expect((await c.get('/api/v1/auth/me', revoked)).status).toBe(401);
    } finally {
      await c.stop();
    }
  });

  it("changes a client's scopes, validated as on registration; the key stays", async () => {
    const key = await a.clientKey('changing', ['view']);
    const changed = await a.patch('/api/v1/clients/Changing', { scopes: ['CONSUME:email', 'publish:*', 'consume:email'] }, a.adminKey);
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'changing', scopes: ['consume:email', 'publish:*'], key_prefix: key.slice(0, 12) });
    expect(changed.body.api_key).toBeUndefined();
    expect((await a.get('/api/v1/auth/me', key)).body.scopes).toEqual(['consume:email', 'publish:*']);
    const unknown = await a.patch('/api/v1/clients/changing', { scopes: ['view', 'fly'] }, a.adminKey);
    expect([unknown.status, unknown.body.code, unknown.body.errors]).toEqual([400, 'unknown_scope', [{ field: 'scopes[1]', message: 'unknown scope "fly"' }]]);
    for (const body of [{ scopes: [] }, {}, { scopes: ['view'], name: 'renamed' }, { scopes: 'view' }]) {
      const bad = await a.patch('/api/v1/clients/changing', body, a.adminKey);
      expect([JSON.stringify(body), bad.status, bad.body.code]).toEqual([JSON.stringify(body), 400, 'validation_failed']);
    }
    expect((await a.get('/api/v1/auth/me', key)).body.scopes).toEqual(['consume:email', 'publish:*']);
    const missing = await a.patch('/api/v1/clients/nobody', { scopes: ['view'] }, a.adminKey);
    expect([missing.status, missing.body.code]).toEqual([404, 'client_not_found']);
    const notAdmin = await a.patch('/api/v1/clients/changing', { scopes: ['admin'] }, key);
    expect([notAdmin.status, notAdmin.body.code]).toEqual([403, 'scope_required']);
  });

  it('a narrowed key loses the removed scope at once on the instance that changed it, and on every other', async () => {
    const key = await a.clientKey('narrowed', ['view', 'publish:*']);
    const c = await startTestBroker({ databaseUrl: a.databaseUrl, adminKey: a.adminKey });
    try {
      // c hears no client changes from the database, as when the notification is still on its way.
      c.broker.context.bus.removeAllListeners('auth');
      for (const mq of [b, c]) expect((await mq.get('/api/v1/topics', key)).status).toBe(200); // cached on b and c
      expect((await c.patch('/api/v1/clients/narrowed', { scopes: ['publish:*'] }, c.adminKey)).status).toBe(200);
      expect((await c.get('/api/v1/topics', key)).status).toBe(403);
      await eventually(async () => (await b.get('/api/v1/topics', key)).status === 403, 'the change heard on b', 3_000);
      expect((await b.get('/api/v1/auth/me', key)).body.scopes).toEqual(['publish:*']);
    } finally {
      await c.stop();
    }
  });

  it('revocation kills the key on every instance; the name can be registered again', async () => {
    const key = await a.clientKey('leaving', ['view']);
    expect((await b.get('/api/v1/topics', key)).status).toBe(200);
    expect((await a.del('/api/v1/clients/leaving', a.adminKey)).status).toBe(204);
    await eventually(async () => (await b.get('/api/v1/topics', key)).status === 401, 'the revocation heard on b', 3_000);
    expect((await a.del('/api/v1/clients/leaving', a.adminKey)).status).toBe(404);
    const listed = await a.get('/api/v1/clients', a.adminKey);
    expect(listed.body.map((c: { name: string }) => c.name)).not.toContain('leaving');
    const again = await a.clientKey('leaving', ['view']);
    expect(again).not.toBe(key);
  });

  it("a client registered again under a revoked name holds none of the old one's leases", async () => {
    await a.post('/api/v1/topics', { name: 'handover' }, a.adminKey);
    await a.post('/api/v1/queues', { name: 'handover-q', topic_name: 'handover' }, a.adminKey);
    const old = await a.clientKey('worker-x', ['consume:handover-q']);
    await a.post('/api/v1/topics/handover/messages', { payload: 'held' }, a.adminKey);
    const claimed = await a.post('/api/v1/queues/handover-q/consume', undefined, old);
    expect(claimed.body.consumer_id).toBe('worker-x');
    expect((await a.del('/api/v1/clients/worker-x', a.adminKey)).status).toBe(204);
    const successor = await a.clientKey('worker-x', ['consume:handover-q']);
    const id = claimed.body.message_id;
    for (const action of ['ack', 'nack', 'extend']) {
      const answer = await a.post(`/api/v1/messages/${id}/${action}`, action === 'extend' ? { seconds: 60 } : {}, successor);
      expect([action, answer.status]).toEqual([action, 409]);
    }
  });

  it('401 for missing, malformed or unknown credentials; 403 for a valid one without the scope', async () => {
    expect((await a.get('/api/v1/topics')).status).toBe(401);
    expect((await a.request('GET', '/api/v1/topics', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await a.get('/api/v1/topics', 'mq_not-a-real-key')).status).toBe(401);
    const publisher = await a.clientKey('publisher', ['publish:orders']);
    const forbidden = await a.get('/api/v1/topics', publisher);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toContain('view');
    expect((await a.get('/api/v1/clients', publisher)).status).toBe(403);
  });

  it('writes last_used_at when a key is used', async () => {
    const key = await a.clientKey('user', ['view']);
    await a.get('/api/v1/topics', key);
    await eventually(async () => {
      const listed = await a.get('/api/v1/clients', a.adminKey);
      return listed.body.find((c: { name: string }) => c.name === 'user')?.last_used_at !== null;
    }, 'last_used_at written');
  });

  it('bootstrap: a configured key becomes bootstrap-admin; without one, only an empty database gets a new admin', async () => {
    expect(await ensureAdmin(a.pool)).toBeNull();
    expect((await a.get('/api/v1/clients', a.adminKey)).status).toBe(200);
  });
});
