import { afterEach, describe, expect, it } from 'vitest';
import { Consumer } from '../../src/consumer/consumer.js';
import type { ConsumerBroker } from '../../src/consumer/types.js';
import type { Message } from '../../src/index.js';

const message = (i: number): Message =>
  ({ message_id: `m${i}`, retry_count: 0, unacked_at: new Date(), lease_expires_at: new Date(Date.now() + 30_000) }) as unknown as Message;

/** A broker that hands out `count` messages once, then nothing, over HTTP only. */
function fakeBroker(count: number): ConsumerBroker {
  let given = false;
  return {
    receive: async (_query, options) => {
      if (given) return new Promise<Message[]>((resolve) => options.signal?.addEventListener('abort', () => resolve([])));
      given = true;
      return Array.from({ length: Math.min(count, options.maxMessages ?? 1) }, (_, i) => message(i));
    },
    ack: async (id) => ({ message_id: id, status: 'ACKED' }),
    nack: async (id) => ({ message_id: id, status: 'PENDING' }),
    extend: async (id) => ({ message_id: id, lease_expires_at: new Date() }),
    push: { baseUrl: 'http://127.0.0.1:1', token: async () => '', ticket: async () => '' },
  };
}

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

describe('consumer abort listeners', () => {
  it('runs 50 handlers at once without a MaxListenersExceededWarning', async () => {
    process.on('warning', onWarning);
    let running = 0;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const consumer = new Consumer(
      fakeBroker(50),
      'q',
      async () => {
        running++;
        await released;
      },
      { concurrency: 50, batchSize: 50 },
    );
    consumer.start();
    while (running < 50) await new Promise((resolve) => setTimeout(resolve, 5));
    // Node emits the warning on the next tick of the listener that crosses the limit.
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await consumer.stop();
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
