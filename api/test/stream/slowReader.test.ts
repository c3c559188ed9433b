import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { topology } from '../helpers/fixtures.js';
import { eventually } from '../helpers/eventually.js';
import { openStream, publishFrame, type TestStream } from './support.js';

/**
 * A stream whose client stops reading (its TCP socket paused, so the kernel's buffers fill and then
 * the broker's) must not take what other streams could deliver: once its output passes the cap
 * (stream/outbox.ts), the broker stops claiming for it, so a reader on the same queue gets the rest
 * and a reader of another queue is served as usual.
 */
let mq: TestBroker;
let key: string;
const open: TestStream[] = [];
beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'bulk', [{ name: 'shared' }]);
  await topology(mq, 'other', [{ name: 'quiet' }]);
  key = await mq.clientKey('slow-reader', ['consume:shared', 'consume:quiet', 'publish:bulk', 'publish:other']);
});
afterAll(async () => {
  for (const stream of open) stream.ws.terminate();
  await mq?.stop();
});

const tcpOf = (stream: TestStream) => (stream.ws as unknown as { _socket: Socket })._socket;

async function subscriber(queue: string, prefetch: number, instance: string): Promise<TestStream> {
  const stream = await openStream(mq, { key, query: `instance=${instance}` });
  open.push(stream);
  stream.send({ type: 'subscribe', sub: queue, queue, prefetch });
  await stream.next((frame) => frame.type === 'subscribed');
  return stream;
}

/** Acks every delivery as it arrives; resolves with the ids it acked so far. */
function ackEverything(stream: TestStream): Set<string> {
  const acked = new Set<string>();
  stream.ws.on('message', (data) => {
    const parsed = JSON.parse(String(data));
    const ids = (Array.isArray(parsed) ? parsed : [parsed]).filter((frame) => frame.type === 'deliver').map((frame) => frame.message.message_id as string);
    for (const id of ids) acked.add(id);
    if (ids.length > 0) stream.send({ type: 'ack', ids });
  });
  return acked;
}

describe('/ws/v1/stream with a subscriber that stops reading', () => {
  it('holds no more than its output cap allows, and the other streams get everything else', async () => {
    // 300 messages of 64 KiB: 19 MiB, far over what the stalled stream's window (1,000) and the
    // kernel's buffers could take before the broker's cap stops it.
    const stalled = await subscriber('shared', 1000, 'stalled');
    tcpOf(stalled).pause();
    const producer = await openStream(mq, { key });
    open.push(producer);
    const big = 'x'.repeat(64 * 1024);
    const total = 300;
    for (let seq = 1; seq <= total; seq += 10) {
      producer.send(Array.from({ length: 10 }, (_, i) => publishFrame(seq + i, 'bulk', big)));
      await producer.collect((frame) => frame.type === 'confirm', seq + 9, 20_000);
    }
    // Let the stalled stream take what it can before the reader comes.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const reader = await subscriber('shared', 10, 'reader');
    const readerAcked = ackEverything(reader);
    const quiet = await subscriber('quiet', 10, 'quiet');
    const quietAcked = ackEverything(quiet);
    for (let seq = 1; seq <= 20; seq += 1) producer.send(publishFrame(total + seq, 'other', `quiet-${seq}`));

    // What is still UNACKED once the reader has acked all it got is what the stalled stream holds.
    const held = async () =>
      (await mq.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM message WHERE queue_name = 'shared' AND status = 'UNACKED'")).rows[0].n;
    await eventually(async () => readerAcked.size + (await held()) === total, 'the reader acking all the stalled stream does not hold', 20_000);
    const stalledHeld = await held();
    expect(stalledHeld, `the stalled stream holds ${stalledHeld} of ${total}`).toBeLessThan(total / 2);
    expect(readerAcked.size).toBeGreaterThan(total / 2);
    await eventually(() => quietAcked.size === 20, 'the other queue’s reader acking all 20');
  }, 60_000);
});
