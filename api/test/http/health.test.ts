import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { eventually } from '../helpers/eventually.js';
import { terminateBackends } from '../resilience/support/backends.js';

/**
 * /actuator/health says what the instance can do, from the health of every service it runs: a
 * connection it serves with that is down makes it DOWN (503), even while the database itself
 * answers; it is UP again once that connection is back.
 */

let mq: TestBroker;
let admin: pg.Client;

beforeAll(async () => {
  mq = await startTestBroker({ listen: true, env: { MINIQUEUE_RATE_LIMIT_ENABLED: 'false' } });
  admin = new pg.Client({ connectionString: mq.databaseUrl });
  await admin.connect();
});
afterAll(async () => {
  await admin?.end();
  await mq?.stop();
});

describe('/actuator/health', () => {
  it('is UP while every service runs', async () => {
    const response = await mq.get('/actuator/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'UP' });
  });

  it.each([
    ['coordination', 'miniqueue-ws', 'realtime-coordinator'],
    ['LISTEN', 'miniqueue-listen', 'notification-bus'],
  ])('is DOWN while its %s connection is lost, and UP once it is back', async (_what, application, service) => {
    let down: { status: number; body: any } | undefined;
    await eventually(async () => {
      await terminateBackends(admin, application);
      const response = await mq.get('/actuator/health');
      if (response.status !== 200) down = response;
      return down !== undefined;
    }, `health DOWN while ${application} is terminated`);
    expect(down?.status).toBe(503);
    expect(down?.body).toMatchObject({ code: 'database_unavailable' });
    expect(down?.body.message).toContain(service);
    await eventually(async () => (await mq.get('/actuator/health')).status === 200, 'health UP again');
  });
});
