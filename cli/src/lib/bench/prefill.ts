import type { MiniQueue } from '@miniqueue/sdk';
import { makePayload } from './payload.js';
import { NO_KEY } from './workers.js';

/** The batch route's largest request. */
const BATCH = 500;

/** Puts `count` messages on the topic before the clock starts, a few requests at once. */
export async function prefill(client: MiniQueue, topic: string, count: number, size: number): Promise<void> {
  let left = count;
  const worker = async () => {
    while (left > 0) {
      const n = Math.min(BATCH, left);
      left -= n;
      await client.publishBatch(
        topic,
        Array.from({ length: n }, () => ({ payload: makePayload(size, 0), ...NO_KEY })),
      );
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}
