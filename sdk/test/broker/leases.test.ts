import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LeaseLostError, type MiniQueue, type ConsumerOptions, type MessageHandler, type ProcessedEvent } from '../../src/index.js';
import { brokerForFile, sleep, type SdkBroker } from '../helpers/broker.js';

let env: SdkBroker;
let admin: MiniQueue;
brokerForFile((started) => {
  env = started;
  admin = started.admin;
});

/** The frames clients of this process sent on their streams, of the types a broker never sends. */
const wire: Array<Record<string, unknown>> = [];
const originalSend = WebSocket.prototype.send;
WebSocket.prototype.send = function recorded(this: WebSocket, data: unknown, ...rest: unknown[]) {
  if (typeof data === 'string' && /"type":"(extend|nack)"/.test(data)) {
    const parsed: unknown = JSON.parse(data);
    for (const frame of Array.isArray(parsed) ? parsed : [parsed]) if (frame.type === 'extend' || frame.type === 'nack') wire.push(frame);
  }
  return (originalSend as (...args: unknown[]) => void).call(this, data, ...rest);
} as typeof originalSend;
afterEach(() => void wire.splice(0));

async function setUp(name: string, queue: { ackTimeoutSeconds?: number; maxRetries?: number }, transport: 'stream' | 'http') {
  await admin.topics.create(name);
  await admin.queues.create(name, name, queue);
  const producer = await env.client(`${name}-producer`, [`publish:${name}`]);
  const consumerClient = await env.client(`${name}-consumer`, [`consume:${name}`], { retry: { baseDelayMs: 20 }, transport });
  return { producer, consumerClient };
}

async function countsOf(queue: string) {
  const stats = await admin.dashboard.queues();
  return stats.find((s) => s.queue === queue)!;
}

/**
 * Runs a consumer of `count` messages until `done`, while the broker's lease sweeper runs as in
 * production (every 250 ms here): what it saw, and how many leases the sweeper found expired.
 */
async function consumeWhileSweeping(
  name: string,
  queue: { ackTimeoutSeconds?: number; maxRetries?: number },
  count: number,
  handler: MessageHandler,
  options: ConsumerOptions,
  done: (seen: Seen) => boolean,
  transport: 'stream' | 'http' = 'stream',
) {
  const { producer, consumerClient } = await setUp(name, queue, transport);
  const ids = (
    await producer.publishBatch(
      name,
      Array.from({ length: count }, (_, i) => ({ payload: `message ${i}` })),
    )
  ).results.map((r) => r.message_ids[0]);
  const seen: Seen = { runs: [], processed: [], errors: [], expired: 0 };
  const consumer = consumerClient.consumer(
    name,
    async (message, context) => {
      seen.runs.push({ id: message.message_id, retryCount: message.retry_count });
      return handler(message, context);
    },
    options,
  );
  consumer.on('processed', (event) => seen.processed.push(event));
  consumer.on('error', (error, context) => seen.errors.push(`${context.phase}: ${String(error)}`));
  consumer.start();
  try {
    const deadline = Date.now() + 30_000;
    while (!done(seen) && !(await settled(name, count)) && Date.now() < deadline) {
      await sleep(250);
      seen.expired += await env.sweep(); // what production's sweeper would do meanwhile
    }
  } finally {
    await consumer.stop();
  }
  return { ids, seen };
}

interface Seen {
  runs: Array<{ id: string; retryCount: number }>;
  processed: ProcessedEvent[];
  errors: string[];
  expired: number;
}

/** Every message acked or dead. */
async function settled(queue: string, count: number): Promise<boolean> {
  const counts = await countsOf(queue);
  return counts.acked + counts.dead === count;
}

const outcomesOf = (seen: Seen) =>
  seen.processed.reduce<Record<string, number>>((all, event) => ({ ...all, [event.outcome]: (all[event.outcome] ?? 0) + 1 }), {});

describe('consumer leases over the stream', { timeout: 60_000 }, () => {
  it('keeps the leases of prefetched messages while they wait: ack timeout 2 s, concurrency 1, prefetch 10, a 500 ms handler', async () => {
    const { ids, seen } = await consumeWhileSweeping(
      'waiting',
      { ackTimeoutSeconds: 2 },
      10,
      () => sleep(500),
      { concurrency: 1, prefetch: 10 },
      (s) => s.processed.length >= 10,
    );
    expect(seen.expired, 'leases the sweeper found expired').toBe(0);
    expect(seen.errors).toEqual([]);
    expect(seen.runs.map((run) => run.id).sort(), 'one handler run per message').toEqual([...ids].sort());
    expect(seen.runs.every((run) => run.retryCount === 0)).toBe(true);
    expect(outcomesOf(seen)).toEqual({ acked: 10 });
    expect(await countsOf('waiting')).toMatchObject({ acked: 10, pending: 0, unacked: 0, dead: 0 });
  });

  it('keeps ordering keys in order while their prefetched messages wait with extended leases', async () => {
    const { producer, consumerClient } = await setUp('ordered', { ackTimeoutSeconds: 2 }, 'stream');
    const items = Array.from({ length: 9 }, (_, i) => ({ payload: `k${i % 3}-${Math.floor(i / 3)}`, orderingKey: `k${i % 3}` }));
    await producer.publishBatch('ordered', items);
    const runs: string[] = [];
    let expired = 0;
    const consumer = consumerClient.consumer(
      'ordered',
      async (message) => {
        runs.push(message.payload);
        await sleep(1200); // the head of each key waits up to 2.4 s, beyond its 2 s lease
      },
      { concurrency: 1, prefetch: 10 },
    );
    consumer.on('error', (error) => runs.push(`error: ${String(error)}`));
    consumer.start();
    try {
      while (!(await settled('ordered', 9))) {
        await sleep(250);
        expired += await env.sweep();
      }
    } finally {
      await consumer.stop();
    }
    expect(expired).toBe(0);
    expect(runs).toHaveLength(9);
    for (const key of ['k0', 'k1', 'k2']) expect(runs.filter((run) => run.startsWith(key))).toEqual([0, 1, 2].map((n) => `${key}-${n}`));
  });

  it('dead-letters nothing that never failed: max retries 1, prefetch 8, a 1.5 s handler', async () => {
    const { ids, seen } = await consumeWhileSweeping(
      'patient',
      { ackTimeoutSeconds: 2, maxRetries: 1 },
      10,
      () => sleep(1500),
      { concurrency: 1, prefetch: 8 },
      (s) => s.processed.length >= 10,
    );
    expect(seen.expired, 'leases the sweeper found expired').toBe(0);
    expect(seen.errors).toEqual([]);
    expect(seen.runs.map((run) => run.id).sort(), 'one handler run per message').toEqual([...ids].sort());
    expect(outcomesOf(seen)).toEqual({ acked: 10 });
    expect(await countsOf('patient')).toMatchObject({ acked: 10, pending: 0, unacked: 0, dead: 0 });
  });

  it.each(['stream', 'http'] as const)(
    '%s: hands back, once and without penalty, a message whose handler outlives the maximum extension; it is delivered again',
    async (transport) => {
      const reasons: unknown[] = [];
      const { ids, seen } = await consumeWhileSweeping(
        `hung-${transport}`,
        { ackTimeoutSeconds: 2 },
        1,
        async (message, { signal }) => {
          if (reasons.length > 0) return; // the second delivery is handled at once
          await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          reasons.push(signal.reason);
        },
        { concurrency: 1, prefetch: 2, maxExtensionSeconds: 3, stopTimeoutMs: 1000 },
        (s) => s.processed.length >= 1,
        transport,
      );
      expect(seen.expired, 'leases the sweeper found expired').toBe(0);
      expect(seen.errors).toEqual([]);
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toBeInstanceOf(LeaseLostError);
      expect(seen.runs, 'delivered twice, its retry count unchanged').toEqual([
        { id: ids[0], retryCount: 0 },
        { id: ids[0], retryCount: 0 },
      ]);
      // The first handler's outcome was not applied: only the second delivery was acked.
      expect(seen.processed.map((event) => event.outcome)).toEqual(['acked']);
      if (transport === 'stream') {
        const handBacks = wire.filter((frame) => frame.type === 'nack');
        expect(handBacks).toEqual([expect.objectContaining({ id: ids[0], count_retry: false, delay_seconds: 0 })]);
      }
      expect(await countsOf(`hung-${transport}`)).toMatchObject({ acked: 1, pending: 0, unacked: 0, dead: 0 });
    },
  );

  it('extends many held messages with few frames, each for many ids', async () => {
    // 200 messages held at once (one slow handler, 199 waiting) through three rounds of a 2 s lease.
    let first = true;
    const { seen } = await consumeWhileSweeping(
      'crowd',
      { ackTimeoutSeconds: 2 },
      200,
      async () => {
        if (!first) return;
        first = false;
        await sleep(3500);
      },
      { concurrency: 1, prefetch: 200 },
      (s) => s.processed.length >= 200,
    );
    expect(seen.expired).toBe(0);
    expect(seen.errors).toEqual([]);
    expect(outcomesOf(seen)).toEqual({ acked: 200 });
    const extends_ = wire.filter((frame) => frame.type === 'extend');
    const extendedIds = extends_.flatMap((frame) => (frame.ids as string[] | undefined) ?? [frame.id]);
    expect(new Set(extendedIds).size, 'every waiting message was extended').toBeGreaterThanOrEqual(199);
    // One round every half lease for ~3.5 s: a handful of frames, never one per message.
    expect(extends_.length).toBeLessThanOrEqual(10);
  });
});
