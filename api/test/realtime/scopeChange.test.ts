import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { CLOSE_CREDENTIAL_ENDED } from '../../src/realtime/hub.js';
import { openSocket, refusalOf, rotationReady, startPair, ticket } from './support.js';

let a: TestBroker;
let b: TestBroker;

beforeAll(async () => {
  [a, b] = await startPair();
  await topology(a, 'notices', [{ name: 'email' }, { name: 'sms' }]);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
});

describe("changing a client's scopes, with sockets open on two instances", () => {
  it('closes what the new scopes no longer allow, everywhere, and keeps what they still do', async () => {
    const key = await a.clientKey('narrowing', ['consume:email', 'consume:sms', 'view']);
    const email = await openSocket(a, '/ws/consume?queue=email', { key });
    const sms = await openSocket(b, `/ws/consume?queue=sms&ticket=${await ticket(a, key)}`);
    const monitor = await openSocket(b, '/ws/monitor', { key });
    // Asked for before the change, used after it.
    const [monitorTicket, smsTicket] = [await ticket(a, key), await ticket(b, key)];
    await rotationReady([a, b], 'email', 1);
    await rotationReady([a, b], 'sms', 1);

    expect((await a.patch('/api/v1/clients/narrowing', { scopes: ['consume:sms'] }, a.adminKey)).status).toBe(200);

    expect(await email.closed).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'scope removed' });
    expect(await monitor.closed).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'scope removed' });
    // b closed the monitor, so it has handled the change: the socket still allowed is still open.
    expect(sms.ws.readyState).toBe(sms.ws.OPEN);
    await rotationReady([a, b], 'email', 0);
    await rotationReady([a, b], 'sms', 1);

    expect((await refusalOf(b, `/ws/monitor?ticket=${monitorTicket}`)).status).toBe(403);
    expect((await refusalOf(b, '/ws/consume?queue=email', { key })).status).toBe(403);
    const again = await openSocket(a, `/ws/consume?queue=sms&ticket=${smsTicket}`);
    await rotationReady([a, b], 'sms', 2);
    for (const socket of [sms, again]) socket.ws.close();
    await Promise.all([sms.closed, again.closed]);
  });
});
