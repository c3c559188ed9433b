import { expectStatus, runLoad, type BenchClient, type LoadResult } from '../http.js';
import { PAYLOAD } from './topology.js';

/**
 * Workloads of ordering keys and filtered subscriptions, each beside its plain counterpart in the
 * same run: fan-out to 20 queues with and without filters (the same headers on every message, so
 * the difference is the filters' evaluation), and publish / consume + ack with ordering keys.
 */

/** Headers every fan-out message carries, filtered or not. */
export const FAN_OUT_HEADERS = { region: 'eu', type: 'order.placed', source: 'bench' };

/** A filter of three conditions that the fan-out messages all match: 20 copies either way. */
export const MATCHING_FILTER = {
  and: [{ header: 'region', one_of: ['eu', 'us', 'uk'] }, { header: 'type', prefix: 'order.' }, { not: { header: 'test', exists: true } }],
};

/** Topic with `queues` queues, each with `filter` (or none). */
export async function createFilteredTopic(admin: BenchClient, topic: string, queues: string[], filter?: object): Promise<void> {
  expectStatus(await admin.request('POST', '/api/v1/topics', { name: topic }), 201);
  for (const queue of queues) {
    expectStatus(await admin.request('POST', '/api/v1/queues', { name: queue, topic_name: topic, ack_timeout_seconds: 3600, filter }), 201);
  }
}

/** One message per request, each built by `message(step)`; `copies` counts what the broker stored. */
export async function publishEach(
  client: BenchClient,
  topic: string,
  bound: { count: number; seconds: number },
  concurrency: number,
  message: (step: number) => object,
): Promise<LoadResult & { copies: number }> {
  const path = `/api/v1/topics/${topic}/messages`;
  let copies = 0;
  let step = 0;
  const result = await runLoad({ concurrency, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
    const reply = expectStatus(await client.request('POST', path, message(step++)), 201);
    copies += reply.body.message_ids.length;
    return { messages: 1, requests: 1 };
  });
  return { ...result, copies };
}

/** `count` messages with ordering keys from `keys` keys, round-robin, through the batch API. */
export async function seedOrdered(client: BenchClient, topic: string, count: number, keys: number): Promise<void> {
  const path = `/api/v1/topics/${topic}/messages/batch`;
  for (let start = 0; start < count; start += 500) {
    const size = Math.min(500, count - start);
    const messages = Array.from({ length: size }, (_, i) => ({ payload: PAYLOAD, ordering_key: `key-${(start + i) % keys}` }));
    expectStatus(await client.request('POST', path, { messages }), 201);
  }
}
