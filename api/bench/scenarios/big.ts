import type { BenchClient } from '../http.js';
import { receiveAck, seed } from './throughput.js';

/**
 * Builds the large states compared against an empty database, only through the public
 * API: a backlog of pending messages, or a history of acked ones. Either can take minutes on a
 * slow broker, so progress is reported and the size is BENCH_BIG.
 */

const CHUNK = 50_000;

async function inChunks(total: number, progress: (line: string) => void, label: string, work: (size: number) => Promise<void>): Promise<void> {
  const started = Date.now();
  let done = 0;
  let reported = Date.now();
  while (done < total) {
    const size = Math.min(CHUNK, total - done);
    await work(size);
    done += size;
    if (Date.now() - reported > 10_000 || done === total) {
      reported = Date.now();
      const seconds = (Date.now() - started) / 1000;
      progress(`  ${label}: ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} in ${seconds.toFixed(0)} s`);
    }
  }
}

/** `total` pending messages on the topic's queue: batch publish, 500 per request, 4 at once. */
export function seedPending(publisher: BenchClient, topic: string, total: number, progress: (line: string) => void): Promise<void> {
  return inChunks(total, progress, 'pending seeded', (size) => seed(publisher, topic, size, 4));
}

/**
 * `total` acked messages in the queue's history: publish a chunk, then receive 100 + batch ack
 * until it is gone, chunk after chunk, the way history really builds up (the backlog never grows
 * large, the history does).
 */
export function seedHistory(
  publisher: BenchClient,
  consumer: BenchClient,
  names: { topic: string; queue: string },
  total: number,
  progress: (line: string) => void,
): Promise<void> {
  return inChunks(total, progress, 'history seeded', async (size) => {
    await seed(publisher, names.topic, size, 4);
    const drained = await receiveAck(consumer, names.queue, 100, { count: size, seconds: 1e9 }, 8);
    if (drained.messages < size) throw new Error(`drained only ${drained.messages} of ${size} seeded messages`);
  });
}
