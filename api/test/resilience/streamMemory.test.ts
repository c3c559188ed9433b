import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { newApiKey } from '../../src/auth/apiKeys.js';
import { createTestDatabase } from '../helpers/database.js';
import { openStream, publishFrame, type TestStream } from '../stream/support.js';
import { spawnBroker, type BrokerProcess } from './support/brokerProcess.js';
import { fetchClient } from './support/fetchClient.js';

/**
 * A stream whose client stops reading its socket, with many subscriptions of a large prefetch on a
 * queue of large messages, must not hold the broker's memory: the output cap (1 MiB not yet taken
 * by the socket) is the stream's, whatever its number of subscriptions, and no claim brings back
 * more than the stream may still take. Measured on a broker in its own process (its VmRSS), while a
 * second stream on the same queue takes every message the stuck one does not hold.
 */
const TOPIC = 'memory';
const QUEUE = 'memory';
const MESSAGES = 1500;
const PAYLOAD = 'x'.repeat(200 * 1000);
const SUBSCRIPTIONS = 20;
const MAX_GROWTH_MB = 50;
/** Messages the reader takes before the stuck stream comes. */
const WARM_UP = 200;

const rssMbOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
const tcpOf = (stream: TestStream) => (stream.ws as unknown as { _socket: Socket })._socket;

describe('a stream that stops reading, with 20 subscriptions of prefetch 1000 on 1,500 messages of 200 KB', () => {
  const adminKey = newApiKey().key;
  let databaseUrl: string;
  let db: pg.Client;
  const brokers: BrokerProcess[] = [];
  const streams: TestStream[] = [];
  const start = async () => {
    const broker = await spawnBroker({ DATABASE_URL: databaseUrl, MINIQUEUE_BOOTSTRAP_ADMIN_KEY: adminKey, MINIQUEUE_RATE_LIMIT_ENABLED: 'false' });
    brokers.push(broker);
    return broker;
  };
  const open = async (broker: BrokerProcess, instance: string) => {
    const stream = await openStream(broker, { key: adminKey, query: `instance=${instance}` });
    streams.push(stream);
    return stream;
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    for (const stream of streams) stream.ws.terminate();
    for (const broker of brokers) await broker.kill();
    await db?.end();
  });

  it('the broker’s memory grows by at most 50 MB, and another stream gets every message the stuck one does not hold', async () => {
    // The messages are published through another broker process, so the one measured starts clean.
    const publisher = await start();
    const api = fetchClient(publisher.url);
    expect((await api.request('POST', '/api/v1/topics', { key: adminKey, body: { name: TOPIC } })).status).toBe(201);
    expect((await api.request('POST', '/api/v1/queues', { key: adminKey, body: { name: QUEUE, topic_name: TOPIC, ack_timeout_seconds: 300 } })).status).toBe(
      201,
    );
    const producer = await open(publisher, 'producer');
    for (let seq = 1; seq <= MESSAGES; seq += 1) {
      producer.send(publishFrame(seq, TOPIC, PAYLOAD));
      if (seq % 50 === 0) await producer.collect((frame) => frame.type === 'confirm', seq, 60_000);
    }
    await publisher.kill();

    const measured = await start();
    const pid = measured.child.pid as number;
    // A reader that acks all it gets takes the first messages before the stuck stream comes: the
    // baseline is the broker carrying this traffic (its heap grown to what that needs), so what is
    // measured is what the stuck stream adds.
    const reader = await open(measured, 'reader');
    const readerAcked = new Set<string>();
    reader.ws.on('message', (data) => {
      const parsed = JSON.parse(String(data));
      const ids = (Array.isArray(parsed) ? parsed : [parsed]).filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id as string);
      for (const id of ids) readerAcked.add(id);
      if (ids.length > 0) reader.send({ type: 'ack', ids });
    });
    reader.send({ type: 'subscribe', sub: 'r', queue: QUEUE, prefetch: 50 });
    await reader.collect((frame) => frame.type === 'deliver', WARM_UP, 60_000);
    const baseline = rssMbOf(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMbOf(pid))), 25);
    try {
      const stuck = await open(measured, 'stuck');
      stuck.send(Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({ type: 'subscribe', sub: `s${i}`, queue: QUEUE, prefetch: 1000 })));
      tcpOf(stuck).pause();

      const heldByStuck = async () =>
        (
          await db.query<{ n: number }>("SELECT count(*)::int AS n FROM message WHERE queue_name = $1 AND status = 'UNACKED' AND consumer_id LIKE '%/stuck'", [
            QUEUE,
          ])
        ).rows[0].n;
      const deadline = Date.now() + 120_000;
      let stuckHeld = await heldByStuck();
      while (readerAcked.size + stuckHeld < MESSAGES) {
        if (Date.now() > deadline) throw new Error(`the reader acked ${readerAcked.size}, the stuck stream holds ${stuckHeld}, of ${MESSAGES}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
        stuckHeld = await heldByStuck();
      }
      peak = Math.max(peak, rssMbOf(pid));
      const rss = `RSS from ${baseline.toFixed(0)} MB to a peak of ${peak.toFixed(0)} MB; the stuck stream holds ${stuckHeld}`;
      expect(peak - baseline, rss).toBeLessThanOrEqual(MAX_GROWTH_MB);
      expect(readerAcked.size + stuckHeld).toBe(MESSAGES);
      expect(stuckHeld, `the stuck stream holds a few, not the queue (${rss})`).toBeLessThan(MESSAGES / 10);
    } finally {
      clearInterval(sampler);
    }
  }, 300_000);
});
