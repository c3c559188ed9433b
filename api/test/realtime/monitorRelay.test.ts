import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { eventually, openSocket, settle, startPair } from './support.js';

let a: TestBroker;
let b: TestBroker;
let listener: pg.Client;
/** Monitor notifications on the wire, with when they were heard. */
const heard: { at: number; instance: string }[] = [];

beforeAll(async () => {
  [a, b] = await startPair();
  await topology(a, 'quiet', [{ name: 'quiet-q' }]);
  listener = new pg.Client({ connectionString: a.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => heard.push({ at: Date.now(), instance: JSON.parse(n.payload ?? '{}').instance }));
  await listener.query('LISTEN miniqueue_monitor');
});
afterAll(async () => {
  await listener.end();
  await b.stop();
  await a.stop();
});

async function cycles(count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await publishOne(a, 'quiet', `x${i}`);
    const claimed = await a.post('/api/v1/queues/quiet-q/consume', undefined, a.adminKey);
    await a.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, a.adminKey);
  }
}

/** How many messages of each type a feed showed, whether one by one or summed up. */
function tally(frames: { eventType: string; count: number }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const frame of frames) counts[frame.eventType] = (counts[frame.eventType] ?? 0) + frame.count;
  return counts;
}

describe('the live feed across instances', () => {
  it('sends nothing to other instances while nobody watches', async () => {
    await cycles(5);
    await settle(400);
    expect(heard).toEqual([]);
  });

  it('while a dashboard watches on another instance, sends its transitions coalesced: ten notifications a second at most', async () => {
    const socket = await openSocket(b, '/ws/monitor', { key: b.adminKey });
    const started = Date.now();
    await cycles(60);
    const took = Date.now() - started;
    await eventually(() => (tally(socket.frames).ACKED ?? 0) >= 60, 'every ack shown');
    expect(tally(socket.frames)).toEqual({ PUBLISHED: 60, CONSUMED: 60, ACKED: 60 });
    // 180 transitions went out in about one notification per 100 ms.
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.length).toBeLessThanOrEqual(Math.ceil(took / 100) + 2);
    expect(heard.every((notification) => notification.instance === a.broker.context.instanceId)).toBe(true);

    socket.ws.close();
    await eventually(async () => (await a.pool.query('SELECT 1 FROM ws_monitor')).rowCount === 0, 'presence gone');
    // Instances trust what they last saw of the others' monitors for a second.
    await settle(1_100);
    heard.length = 0;
    await cycles(5);
    await settle(400);
    expect(heard).toEqual([]);
  });
});
