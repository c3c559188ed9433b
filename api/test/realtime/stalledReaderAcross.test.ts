import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBroker } from '../helpers/broker.js';
import { publishOne, topology } from '../helpers/fixtures.js';
import { eventually, hubOf, openSocket, rotationReady, startPair, type TestSocket } from './support.js';

/**
 * A /ws/consume consumer that stops reading on one instance must not keep its share of a queue's
 * notifications while a consumer of that queue on another instance reads: within seconds the
 * reader hears of (almost) every message, wherever the dispatcher runs; and the stalled consumer
 * gets its turn back once it reads again.
 */

let a: TestBroker;
let b: TestBroker;
let consumerKey: string;
const open: TestSocket[] = [];

beforeAll(async () => {
  [a, b] = await startPair();
  await topology(a, 'stalled.near', [{ name: 'stalled-near' }]);
  await topology(a, 'stalled.far', [{ name: 'stalled-far' }]);
  consumerKey = await a.clientKey('stalled-consumer', ['consume:*']);
});
afterAll(async () => {
  for (const socket of open) socket.ws.terminate();
  for (const mq of [b, a]) await mq?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tcpOf = (socket: TestSocket) => (socket.ws as unknown as { _socket: Socket })._socket;
const heard = (socket: TestSocket) => new Set(socket.frames.map((frame) => frame.message_id as string));

async function consumer(mq: TestBroker, queue: string): Promise<TestSocket> {
  const socket = await openSocket(mq, `/ws/consume?queue=${queue}`, { key: consumerKey });
  open.push(socket);
  return socket;
}

/** Publishes `count` messages `gapMs` apart, through both instances in turn; returns their ids. */
async function publish(topic: string, count: number, gapMs: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push(...(await publishOne(i % 2 === 0 ? a : b, topic, `${label}-${i}`)));
    await sleep(gapMs);
  }
  return ids;
}

async function instances(): Promise<{ leader: TestBroker; follower: TestBroker }> {
  await eventually(() => hubOf(a).dispatcher.active || hubOf(b).dispatcher.active, 'a dispatcher');
  return hubOf(a).dispatcher.active ? { leader: a, follower: b } : { leader: b, follower: a };
}

describe('/ws/consume with a consumer that stops reading on one instance and one that reads on the other', () => {
  const cases = [
    { where: "on the dispatcher's instance", topic: 'stalled.near', queue: 'stalled-near', stalledOnLeader: true },
    { where: 'on the instance that does not dispatch', topic: 'stalled.far', queue: 'stalled-far', stalledOnLeader: false },
  ];
  for (const { where, topic, queue, stalledOnLeader } of cases) {
    it(`gives its turns to the reader within seconds when it stalls ${where}, and takes them back when it reads again`, async () => {
      const { leader, follower } = await instances();
      const stalled = await consumer(stalledOnLeader ? leader : follower, queue);
      const reader = await consumer(stalledOnLeader ? follower : leader, queue);
      await rotationReady([a, b], queue, 2);
      tcpOf(stalled).pause();

      // Some seconds of traffic while it has stopped reading: long enough for its probe to go unanswered.
      await publish(topic, 40, 100, 'first');
      const later = await publish(topic, 60, 20, 'later');
      await eventually(() => later.every((id) => heard(reader).has(id)), 'the reader hearing of every later message', 5_000).catch(() => undefined);
      const got = later.filter((id) => heard(reader).has(id)).length;
      expect(got, `the reader heard of ${got} of ${later.length} messages published after the stall was noticed`).toBeGreaterThanOrEqual(
        Math.ceil(0.95 * later.length),
      );

      // Reading again, it reads what waited in its buffer, answers the ping among it, and takes turns again.
      const pinged = new Promise((resolve) => stalled.ws.once('ping', resolve));
      tcpOf(stalled).resume();
      await pinged;
      const before = stalled.frames.length;
      const again = await publish(topic, 20, 20, 'again');
      await eventually(() => again.every((id) => heard(reader).has(id) || heard(stalled).has(id)), 'every message heard of');
      expect(stalled.frames.length - before, 'notifications the consumer heard of once it read again').toBeGreaterThanOrEqual(5);
    }, 30_000);
  }
});
