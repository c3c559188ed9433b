import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { createTestDatabase } from '../helpers/database.js';
import { ALL_MESSAGES } from '../helpers/allMessages.js';
import { openStream, publishFrame, type TestStream } from '../stream/support.js';
import { spawnBroker, type BrokerProcess } from './support/brokerProcess.js';
import { fetchClient } from './support/fetchClient.js';

const TOPIC = 'stream-crash';
const QUEUE = 'stream-crash';
const PUBLISHED_BEFORE_KILL = 400;

async function rowsOf(databaseUrl: string): Promise<{ id: string; payload: string; status: string }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(`SELECT id, payload, status FROM ${ALL_MESSAGES} WHERE topic_name = $1`, [TOPIC])).rows;
  } finally {
    await client.end();
  }
}

const deliveredIds = (stream: TestStream) => stream.frames.filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id as string);

describe('a broker killed with SIGKILL while streams publish and consume', () => {
  const adminKey = newApiKey().key;
  let databaseUrl: string;
  const brokers: BrokerProcess[] = [];
  const streams: TestStream[] = [];
  const start = async () => {
    const broker = await spawnBroker({ DATABASE_URL: databaseUrl, MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey, MINIQUEUE_SWEEP_INTERVAL_SECONDS: '1' });
    brokers.push(broker);
    return broker;
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
  });
  afterAll(async () => {
    for (const stream of streams) stream.ws.terminate();
    for (const broker of brokers) await broker.kill();
  });

  it('keeps every confirmed publish and ack; what the dead broker’s streams held comes back to the other', async () => {
    const doomed = await start();
    const survivor = await start();
    const api = fetchClient(doomed.url);
    expect((await api.request('POST', '/api/v1/topics', { key: adminKey, body: { name: TOPIC } })).status).toBe(201);
    const queue = await api.request('POST', '/api/v1/queues', {
      key: adminKey,
      body: { name: QUEUE, topic_name: TOPIC, ack_timeout_seconds: 10, max_retries: 100 },
    });
    expect(queue.status).toBe(201);
    const open = async (broker: BrokerProcess, query: string) => {
      const stream = await openStream(broker, { key: adminKey, query });
      streams.push(stream);
      return stream;
    };
    const producer = await open(doomed, 'instance=producer');
    const consumer = await open(doomed, 'instance=doomed-consumer');
    consumer.send({ type: 'subscribe', sub: 'c', queue: QUEUE, prefetch: 20 });
    await consumer.next((frame) => frame.type === 'subscribed');

    // Publish in a pipeline; ack half of what arrives (confirmed acks), hold the rest.
    let seq = 0;
    let deliveries = 0;
    const ackedConfirmed = new Set<string>();
    consumer.ws.on('message', (data) => {
      const parsed = JSON.parse(String(data));
      for (const frame of Array.isArray(parsed) ? parsed : [parsed]) {
        // Every other delivery is acked, the rest held (deliveries come in arrays of any size).
        if (frame.type === 'deliver' && deliveries++ % 2 === 0) consumer.send({ type: 'ack', ids: [frame.message.message_id], ref: seq++ });
        if (frame.type === 'acked') for (const id of frame.acked) ackedConfirmed.add(id);
      }
    });
    for (let i = 1; i <= PUBLISHED_BEFORE_KILL; i += 1) producer.send(publishFrame(i, TOPIC, `p${i}`));
    await producer.collect((frame) => frame.type === 'confirm', PUBLISHED_BEFORE_KILL / 2, 20_000);
    // The consumer holds some (every other delivery is left unacked) before the kill.
    await consumer.collect((frame) => frame.type === 'deliver', 10, 20_000);
    // More publishes in flight at the moment of the kill: they may be stored or not, never by halves.
    for (let i = PUBLISHED_BEFORE_KILL + 1; i <= PUBLISHED_BEFORE_KILL + 200; i += 1) producer.send(publishFrame(i, TOPIC, `p${i}`));
    await doomed.kill();
    await Promise.all([producer.closed, consumer.closed]);

    const confirmed = new Map(producer.frames.filter((frame) => frame.type === 'confirm').map((frame) => [frame.message_ids[0] as string, `p${frame.seq}`]));
    const atKill = await rowsOf(databaseUrl);
    const byId = new Map(atKill.map((row) => [row.id, row]));
    for (const [id, payload] of confirmed) expect(byId.get(id)?.payload, `confirmed ${payload} stored`).toBe(payload);
    expect(new Set(atKill.map((row) => row.payload)).size).toBe(atKill.length);
    for (const id of ackedConfirmed) expect(byId.get(id)?.status).toBe('ACKED');
    const heldAtKill = atKill.filter((row) => row.status === 'UNACKED').map((row) => row.id);
    expect(heldAtKill.length).toBeGreaterThan(0);

    // The survivor's stream gets everything not acked: the dead broker's leases run out (10 s) and come back.
    const drainer = await open(survivor, 'instance=survivor');
    drainer.ws.on('message', (data) => {
      const parsed = JSON.parse(String(data));
      const ids = (Array.isArray(parsed) ? parsed : [parsed]).filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id);
      if (ids.length > 0) drainer.send({ type: 'ack', ids });
    });
    drainer.send({ type: 'subscribe', sub: 'd', queue: QUEUE, prefetch: 100 });
    const notAcked = atKill.filter((row) => row.status !== 'ACKED').length;
    await drainer.collect((frame) => frame.type === 'deliver', notAcked, 45_000);
    const after = new Set(deliveredIds(drainer));
    for (const id of heldAtKill) expect(after.has(id), `${id} held at the kill is delivered again`).toBe(true);
    for (const id of ackedConfirmed) expect(after.has(id), `${id} acked before the kill is not delivered again`).toBe(false);
  });
});
