import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { BrokerOutput } from '../../src/stream/brokerOutput.js';
import { MAX_QUEUED_BYTES, Outbox } from '../../src/stream/outbox.js';

/**
 * The accounting of streams' output (outbox.ts, brokerOutput.ts), on a socket that takes writes and
 * never finishes them (a client that stopped reading), as far as the outbox sees a socket: its
 * state, its buffered amount, and its send callbacks, called here when the test says it drained.
 */
function stuckSocket() {
  const unfinished: (() => void)[] = [];
  const socket = {
    readyState: WebSocket.OPEN,
    bufferedAmount: 0,
    send: (_text: string, done: () => void) => void unfinished.push(done),
  };
  return { socket: socket as unknown as WebSocket, drain: () => unfinished.splice(0).forEach((done) => done()) };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const KB = 1000;

/** A claim of `count` messages of `size` payload bytes, as longPoll.ts makes it; answers what it reserved. */
function claim(outbox: Outbox, count: number, size: number): number {
  const reserved = outbox.reserveClaim(count);
  if (reserved > 0) {
    outbox.claimed(reserved, count, count * size);
    for (let i = 0; i < count; i += 1) outbox.send({ type: 'deliver', payload: 'x'.repeat(size) });
  }
  return reserved;
}

describe('stream output caps', () => {
  it('a stream’s claims stop at its cap, whatever its number of subscriptions; claims under way count', async () => {
    const broker = new BrokerOutput(1024 * MAX_QUEUED_BYTES);
    const outbox = new Outbox(() => undefined, broker);
    outbox.attach(stuckSocket().socket);
    // 20 subscriptions ask at once: their reservations together stay within the stream's cap.
    const reservations = Array.from({ length: 20 }, () => outbox.reserveClaim(1000));
    const total = reservations.reduce((sum, bytes) => sum + bytes, 0);
    expect(total).toBeLessThanOrEqual(MAX_QUEUED_BYTES);
    expect(reservations.filter((bytes) => bytes > 0).length).toBeLessThan(20);
    expect(outbox.claimable).toBe(false);
    for (const bytes of reservations) if (bytes > 0) outbox.claimed(bytes, 0, 0);
    expect(outbox.claimable).toBe(true);
    // Deliveries that are not written out fill the stream: then no claim.
    while (claim(outbox, 1, 200 * KB) > 0) await turn();
    expect(outbox.claimable).toBe(false);
    expect(outbox.reserveClaim(1000)).toBe(0);
  });

  it('all streams together stop claiming at the broker’s cap, and hear when one drains', async () => {
    const broker = new BrokerOutput(MAX_QUEUED_BYTES);
    let told = 0;
    broker.onRoom(() => (told += 1));
    const first = stuckSocket();
    const a = new Outbox(() => undefined, broker);
    a.attach(first.socket);
    const b = new Outbox(() => undefined, broker);
    b.attach(stuckSocket().socket);
    // `a` alone fills what the broker allows, so `b`, with all its own room, may not claim.
    while (claim(a, 1, 200 * KB) > 0) await turn();
    await turn();
    expect(broker.room).toBe(0);
    expect(b.claimable).toBe(false);
    expect(b.reserveClaim(10)).toBe(0);
    told = 0;
    first.drain();
    expect(told).toBe(1);
    expect(b.claimable).toBe(true);
    expect(b.reserveClaim(10)).toBeGreaterThan(0);
  });

  it('a detached stream counts nothing it had queued', async () => {
    const broker = new BrokerOutput(MAX_QUEUED_BYTES);
    const outbox = new Outbox(() => undefined, broker);
    outbox.attach(stuckSocket().socket);
    claim(outbox, 2, 100 * KB);
    await turn();
    expect(broker.room).toBeLessThan(MAX_QUEUED_BYTES);
    outbox.attach(undefined);
    expect(broker.room).toBe(MAX_QUEUED_BYTES);
  });
});
