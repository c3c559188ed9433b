import type { Bound } from '../config.js';
import { expectStatus, runLoad, type BenchClient, type LoadResult } from '../http.js';
import { PAYLOAD } from './topology.js';

/**
 * The HTTP workloads, each as a loop run by `concurrency` callers at once. Consumers stop when
 * the queue answers empty, so a consume figure never includes time spent finding nothing.
 */

/**
 * One message per request. `copies` counts what the broker stored (one per bound queue). `fields`:
 * more of the publish's body (say `expires_in_seconds`).
 */
export async function publishSingle(
  client: BenchClient,
  topic: string,
  bound: Bound,
  concurrency: number,
  fields: Record<string, unknown> = {},
): Promise<LoadResult & { copies: number }> {
  const path = `/api/v1/topics/${topic}/messages`;
  let copies = 0;
  const result = await runLoad({ concurrency, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
    const reply = expectStatus(await client.request('POST', path, { payload: PAYLOAD, ...fields }), 201);
    copies += reply.body.message_ids.length;
    return { messages: 1, requests: 1 };
  });
  return { ...result, copies };
}

/** `size` messages per request (bound.count is in batches). */
export function publishBatch(client: BenchClient, topic: string, size: number, bound: Bound, concurrency: number): Promise<LoadResult> {
  const path = `/api/v1/topics/${topic}/messages/batch`;
  const body = { messages: Array.from({ length: size }, () => ({ payload: PAYLOAD })) };
  return runLoad({ concurrency, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
    expectStatus(await client.request('POST', path, body), 201);
    return { messages: size, requests: 1 };
  });
}

/**
 * Puts `count` messages on a topic through the batch API (500 per request, the API's largest),
 * a few requests at once: the fastest way in that touches nothing but the public API. `fields`:
 * more of the n-th message's body (say its `priority`).
 */
export async function seed(
  client: BenchClient,
  topic: string,
  count: number,
  concurrency = 4,
  fields: (n: number) => Record<string, unknown> = () => ({}),
): Promise<void> {
  const path = `/api/v1/topics/${topic}/messages/batch`;
  let left = count;
  await runLoad({ concurrency, maxSteps: Number.MAX_SAFE_INTEGER, maxSeconds: 1e9 }, async () => {
    const size = Math.min(500, left);
    if (size <= 0) return null;
    const first = count - left;
    left -= size;
    const body = { messages: Array.from({ length: size }, (_, i) => ({ payload: PAYLOAD, ...fields(first + i) })) };
    expectStatus(await client.request('POST', path, body), 201);
    return { messages: size, requests: 1 };
  });
}

/** consume, then ack: two requests per message. */
export function consumeAck(client: BenchClient, queue: string, bound: Bound, concurrency: number): Promise<LoadResult> {
  const path = `/api/v1/queues/${queue}/consume`;
  return runLoad({ concurrency, maxSteps: bound.count, maxSeconds: bound.seconds }, async () => {
    const consumed = expectStatus(await client.request('POST', path), 200, 204);
    if (consumed.status === 204) return null;
    expectStatus(await client.request('POST', `/api/v1/messages/${consumed.body.message_id}/ack`), 200);
    return { messages: 1, requests: 2 };
  });
}

/** receive up to `size`, then one batch ack (bound.count is in messages). */
export function receiveAck(client: BenchClient, queue: string, size: number, bound: Bound, concurrency: number): Promise<LoadResult> {
  const path = `/api/v1/queues/${queue}/receive`;
  let started = 0;
  return runLoad({ concurrency, maxSteps: Number.MAX_SAFE_INTEGER, maxSeconds: bound.seconds }, async () => {
    if (started >= bound.count) return null;
    started += size;
    const received = expectStatus(await client.request('POST', path, { max_messages: size }), 200);
    const ids: string[] = received.body.messages.map((message: { message_id: string }) => message.message_id);
    if (ids.length === 0) return null;
    const acked = expectStatus(await client.request('POST', '/api/v1/messages/ack', { message_ids: ids }), 200);
    if (acked.body.failed.length > 0) throw new Error(`batch ack failed: ${JSON.stringify(acked.body.failed[0])}`);
    return { messages: ids.length, requests: 2 };
  });
}
