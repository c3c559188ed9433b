import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { statementsDuring } from '../helpers/statements.js';
import { eventually, openSocket, refusalOf, type TestSocket } from './support.js';

const isCredentialLookup = (sql: string) => /\b(ws_ticket|client|dashboard_session)\b/.test(sql);
const BUDGET = 5;

/**
 * An address may fail BUDGET handshakes on their credential before it is refused without a lookup.
 * Each handshake reserves one failure before its credential is looked up and gives it back if the
 * credential was good, so handshakes in flight at once cannot all reach the database.
 */
describe('the failed-handshake budget of an address', () => {
  let mq: TestBroker;
  beforeAll(async () => {
    mq = await startTestBroker({
      listen: true,
      env: { MINIQUEUE_RATE_LIMIT_ANONYMOUS_PER_SECOND: '0.01', MINIQUEUE_RATE_LIMIT_ANONYMOUS_BURST: String(BUDGET) },
    });
  });
  afterAll(() => mq?.stop());

  it('is not spent by handshakes that succeed', async () => {
    const opened: TestSocket[] = [];
    for (let i = 0; i < BUDGET * 2; i += 1) opened.push(await openSocket(mq, '/ws/monitor', { key: mq.adminKey }));
    for (const socket of opened) {
      socket.ws.close();
      await socket.closed;
    }
  });

  it('lets no more concurrent bad handshakes reach the database than it holds', async () => {
    // Lookups are held on a lock, so all 60 handshakes are in flight together, as under a flood.
    const blocker = new pg.Client({ connectionString: mq.databaseUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE client, ws_ticket IN ACCESS EXCLUSIVE MODE');
    const badTicket = () => `/ws/monitor?ticket=wst_${randomBytes(32).toString('base64url')}`;
    const statuses: number[] = [];
    try {
      const statements = await statementsDuring(async () => {
        const refusals = Array.from({ length: 60 }, (_, i) =>
          (i % 2 ? refusalOf(mq, badTicket()) : refusalOf(mq, '/ws/monitor', { key: newApiKey().key })).then((refusal) => void statuses.push(refusal.status)),
        );
        // Those the budget refuses are answered while the lock is held; then the lock goes.
        await eventually(async () => statuses.length >= 60 - BUDGET, 'the handshakes over budget refused', 2_000).catch(() => undefined);
        await blocker.query('COMMIT');
        await Promise.all(refusals);
      });
      expect(statuses.filter((status) => status === 429)).toHaveLength(60 - BUDGET);
      expect(statuses.filter((status) => status === 401)).toHaveLength(BUDGET);
      expect(statements.filter(isCredentialLookup).length).toBeLessThanOrEqual(BUDGET);
    } finally {
      await blocker.end();
    }
  });
});
