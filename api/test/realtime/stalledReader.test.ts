import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { eventually, openSocket, rotationReady, type TestSocket } from './support.js';

/**
 * A /ws/consume consumer whose process stops reading (its TCP socket paused: the kernel's buffers
 * take what is sent, so the server's own buffer stays empty) must stop getting its turn within a
 * few seconds, so that the consumer that reads hears of the messages; and get its turn back once
 * it reads again.
 */

const QUEUE = 'stalled';
let mq: TestBroker;
let consumerKey: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  mq = await startTestBroker({ listen: true });
  await topology(mq, 'stalled.events', [{ name: QUEUE }]);
  consumerKey = await mq.clientKey('stalled-consumer', [`consume:${QUEUE}`]);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  await mq?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tcpOf = (socket: TestSocket) => (socket.ws as unknown as { _socket: Socket })._socket;
const heard = (socket: TestSocket) => new Set(socket.frames.map((frame) => frame.message_id as string));

async function consumer(): Promise<TestSocket> {
  const socket = await openSocket(mq, `/ws/consume?queue=${QUEUE}`, { key: consumerKey });
  open.push(socket);
  return socket;
}

/** Publishes `count` messages, `gapMs` apart; returns their ids. */
async function publish(count: number, gapMs: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push(...(await publishOne(mq, 'stalled.events', `${label}-${i}`)));
    await sleep(gapMs);
  }
  return ids;
}

describe('/ws/consume with a consumer that stops reading', () => {
  it('gives its turns to the consumer that reads within seconds, and gives them back when it reads again', async () => {
    const reader = await consumer();
    const stalled = await consumer();
    await rotationReady([mq], QUEUE, 2);
    tcpOf(stalled).pause();

    // Some seconds of traffic while it has stopped reading: long enough to notice.
    await publish(40, 100, 'first');
    const later = await publish(60, 20, 'later');
    await eventually(() => later.every((id) => heard(reader).has(id)), 'the reader hearing of every later message', 5_000).catch(() => undefined);
    const missed = later.filter((id) => !heard(reader).has(id));
    expect(missed.length, `the reader missed ${missed.length} of ${later.length}`).toBe(0);

    // Reading again, it answers the ping that waited in its buffer and takes turns again.
    tcpOf(stalled).resume();
    await sleep(500);
    const before = stalled.frames.length;
    const again = await publish(20, 20, 'again');
    await eventually(() => again.every((id) => heard(reader).has(id) || heard(stalled).has(id)), 'every message heard of');
    expect(stalled.frames.length - before).toBeGreaterThanOrEqual(5);
  }, 30_000);
});
