import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { replicaPair, type ReplicaPair } from '../resilience/support/replicaPair.js';

/**
 * The multi-host DATABASE_URL against a real primary and standby (loopback, Debian's PostgreSQL):
 * the URL names the standby first, so a broker that took the first host instead of asking would
 * write to a standby.
 */
describe('a broker on a multi-host DATABASE_URL', () => {
  let pair: ReplicaPair;
  let mq: TestBroker;
  let publishKey: string;
  const brokerSessions = (node: ReplicaPair['primary']) =>
    node.query<{ application_name: string }>(
      "SELECT application_name FROM pg_stat_activity WHERE application_name LIKE 'miniqueue%' AND application_name <> 'miniqueue-probe' AND pid <> pg_backend_pid()",
    );
  const publish = () => mq.request('POST', '/api/v1/topics/multi.host/messages', { key: publishKey, body: { payload: 'x' } });
  const setReadOnly = async (on: boolean) => {
    await pair.primary.query(on ? 'ALTER SYSTEM SET default_transaction_read_only = on' : 'ALTER SYSTEM RESET default_transaction_read_only');
    await pair.primary.query('SELECT pg_reload_conf()');
  };

  beforeAll(async () => {
    pair = await replicaPair(false);
    const url = `postgresql://postgres@127.0.0.1:${pair.standby.port},127.0.0.1:${pair.primary.port}/postgres?target_session_attrs=read-write`;
    await migrate(url);
    mq = await startTestBroker({ databaseUrl: url });
    expect((await mq.request('POST', '/api/v1/topics', { key: mq.adminKey, body: { name: 'multi.host' } })).status).toBe(201);
    publishKey = await mq.clientKey('multi-host-publisher', ['publish:multi.host']);
  });
  afterAll(async () => {
    await mq?.stop();
    await pair?.cleanup();
  });

  it('connects every pool and dedicated connection to the primary, checked, whichever host comes first', async () => {
    expect((await mq.pool.query('SELECT inet_server_port() AS port')).rows[0].port).toBe(pair.primary.port);
    expect((await publish()).status).toBe(201);
    expect((await mq.get('/actuator/health')).status).toBe(200);
    expect(await brokerSessions(pair.standby)).toEqual([]);
    const names = (await brokerSessions(pair.primary)).map((session) => session.application_name);
    expect(names).toContain('miniqueue-listen');
  });

  it("with prefer-standby, sends the dashboard's reads to the standby and everything else to the primary", async () => {
    const url = `postgresql://postgres@127.0.0.1:${pair.primary.port},127.0.0.1:${pair.standby.port}/postgres?target_session_attrs=prefer-standby`;
    const reader = await startTestBroker({ databaseUrl: url, adminKey: mq.adminKey });
    try {
      const portOf = async (pool: TestBroker['pool']) => (await pool.query('SELECT inet_server_port() AS port')).rows[0].port;
      expect(await portOf(reader.broker.context.dashboardPool)).toBe(pair.standby.port);
      expect(await portOf(reader.pool)).toBe(pair.primary.port);
      expect((await reader.get('/api/v1/dashboard/overview', reader.adminKey)).status).toBe(200);
      expect((await reader.request('POST', '/api/v1/topics/multi.host/messages', { key: publishKey, body: { payload: 'y' } })).status).toBe(201);
    } finally {
      await reader.stop();
    }
  });

  it('leaves a primary that turns read-only at once, answers 503 with Retry-After and a code, is DOWN, and comes back', async () => {
    await setReadOnly(true);
    try {
      // pg_reload_conf() only signals: a backend takes the setting at its next command after the
      // signal reached it, so a publish may still commit just after the reload. The first refused
      // one must be a 503 naming the database.
      let refused = await publish();
      await eventually(async () => (refused = await publish()).status !== 201, 'a publish refused by the read-only server', 5_000);
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('database_unavailable');
      expect(refused.headers['retry-after']).toBe('1');
      // Every broker connection leaves at once, the LISTEN one too, although it never wrote (a
      // server found read-only only by the next new connection's check would take seconds).
      await eventually(async () => (await brokerSessions(pair.primary)).length === 0, 'no broker session on the read-only server', 2_000);
      const health = await mq.get('/actuator/health');
      expect(health.status).toBe(503);
      expect(health.headers['retry-after']).toBe('1');
      expect((await publish()).status).toBe(503);
    } finally {
      await setReadOnly(false);
    }
    await eventually(async () => (await publish()).status === 201, 'publishing again once the primary takes writes', 15_000);
    await eventually(async () => (await mq.get('/actuator/health')).status === 200, 'UP again', 15_000);
  });

  it('leaves a server that turns read-only while nobody sends a request: the lease sweep writes every second', async () => {
    await eventually(
      async () => (await brokerSessions(pair.primary)).some((s) => s.application_name === 'miniqueue-listen'),
      'listening on the primary',
      15_000,
    );
    await setReadOnly(true);
    try {
      // A sweep a second; the margin is for a loaded machine (idle pooled connections would stay 30 s).
      await eventually(async () => (await brokerSessions(pair.primary)).length === 0, 'no broker session on the read-only server', 8_000);
    } finally {
      await setReadOnly(false);
    }
    await eventually(async () => (await publish()).status === 201, 'publishing again', 15_000);
  });
});
