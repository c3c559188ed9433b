import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { eventually, openSocket, settle } from './support.js';

let mq: TestBroker;
let listener: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'quiet', [{ name: 'quiet-q' }]);
  listener = new pg.Client({ connectionString: mq.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? '{}').event));
  await listener.query('LISTEN miniqueue_events');
});
afterAll(async () => {
  await listener.end();
  await mq.stop();
});

async function publishConsumeAck(): Promise<void> {
  await publishOne(mq, 'quiet', 'x');
  const claimed = await mq.post('/api/v1/queues/quiet-q/consume', undefined, mq.adminKey);
  await mq.post(`/api/v1/messages/${claimed.body.message_id}/ack`, undefined, mq.adminKey);
}

describe('CONSUMED and ACKED are notified only while a monitor watches', () => {
  it('without a monitor, only the publish notifies', async () => {
    await publishConsumeAck();
    await eventually(() => heard.includes('PUBLISHED'), 'PUBLISHED heard');
    await settle(300);
    expect(heard).toEqual(['PUBLISHED']);
  });

  it('with a monitor open, every transition is notified and shown; after it closes, quiet again', async () => {
    heard.length = 0;
    const socket = await openSocket(mq, '/ws/monitor', { key: mq.adminKey });
    await publishConsumeAck();
    await eventually(() => heard.includes('ACKED'), 'ACKED heard');
    expect(heard).toEqual(['PUBLISHED', 'CONSUMED', 'ACKED']);
    await eventually(() => socket.frames.some((event) => event.eventType === 'ACKED'), 'ACKED shown');

    socket.ws.close();
    await eventually(async () => (await mq.pool.query('SELECT 1 FROM ws_monitor')).rowCount === 0, 'presence gone');
    heard.length = 0;
    await publishConsumeAck();
    await eventually(() => heard.includes('PUBLISHED'), 'PUBLISHED heard');
    await settle(300);
    expect(heard).toEqual(['PUBLISHED']);
  });
});
