import type { QueueWaiters } from '../src/broker/waiters.js';
import { expectStatus, runLoad, type BenchClient, type LoadResult } from './http.js';

export interface Limits {
  concurrency: number;
  maxSeconds: number;
}

const PAYLOAD = JSON.stringify({ orderId: 42, customer: 'c-1001', items: [{ sku: 'A-1', qty: 2 }], note: 'x'.repeat(120) });

/** One message per request. */
export function singlePublish(client: BenchClient, topic: string, count: number, limits: Limits): Promise<LoadResult> {
  const path = `/api/v1/topics/${topic}/messages`;
  return runLoad({ ...limits, maxSteps: count }, async () => {
    expectStatus(await client.request('POST', path, { payload: PAYLOAD }), 201);
    return { messages: 1, requests: 1 };
  });
}

/** `size` messages per request, stored in one statement. */
export function batchPublish(client: BenchClient, topic: string, batches: number, size: number, limits: Limits): Promise<LoadResult> {
  const path = `/api/v1/topics/${topic}/messages/batch`;
  const body = { messages: Array.from({ length: size }, () => ({ payload: PAYLOAD })) };
  return runLoad({ ...limits, maxSteps: batches }, async () => {
    expectStatus(await client.request('POST', path, body), 201);
    return { messages: size, requests: 1 };
  });
}

/** consume, then ack: two requests per message, until the queue is empty. */
export function consumeAndAck(client: BenchClient, queue: string, limits: Limits): Promise<LoadResult> {
  const path = `/api/v1/queues/${queue}/consume`;
  return runLoad({ ...limits, maxSteps: Number.MAX_SAFE_INTEGER }, async () => {
    const consumed = expectStatus(await client.request('POST', path), 200, 204);
    if (consumed.status === 204) return null;
    expectStatus(await client.request('POST', `/api/v1/messages/${consumed.body.message_id}/ack`), 200);
    return { messages: 1, requests: 2 };
  });
}

/** receive up to `size`, then one batch ack, until the queue is empty. */
export function receiveAndBatchAck(client: BenchClient, queue: string, size: number, limits: Limits): Promise<LoadResult> {
  const path = `/api/v1/queues/${queue}/receive`;
  return runLoad({ ...limits, maxSteps: Number.MAX_SAFE_INTEGER }, async () => {
    const received = expectStatus(await client.request('POST', path, { max_messages: size }), 200);
    const ids: string[] = received.body.messages.map((message: { message_id: string }) => message.message_id);
    if (ids.length === 0) return null;
    const acked = expectStatus(await client.request('POST', '/api/v1/messages/ack', { message_ids: ids }), 200);
    if (acked.body.failed.length > 0) throw new Error(`batch ack failed: ${JSON.stringify(acked.body.failed[0])}`);
    return { messages: ids.length, requests: 2 };
  });
}

async function untilWaiting(waiters: QueueWaiters, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (waiters.size() === 0) {
    if (Date.now() > deadline) throw new Error('the long poll never started waiting');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Milliseconds from sending a publish to the answer of a consumer already waiting in a long poll
 * on that queue (the broker is in this process, so we can see that it waits before publishing).
 */
export async function wakeUpLatencies(
  consumer: BenchClient,
  publisher: BenchClient,
  waiters: QueueWaiters,
  names: { topic: string; queue: string },
  samples: number,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const waiting = consumer.request('POST', `/api/v1/queues/${names.queue}/consume?wait_seconds=10`);
    await untilWaiting(waiters, 5_000);
    const sent = process.hrtime.bigint();
    const published = publisher.request('POST', `/api/v1/topics/${names.topic}/messages`, { payload: PAYLOAD });
    const woken = expectStatus(await waiting, 200);
    latencies.push(Number(process.hrtime.bigint() - sent) / 1e6);
    expectStatus(await published, 201);
    expectStatus(await consumer.request('POST', `/api/v1/messages/${woken.body.message_id}/ack`), 200);
  }
  return latencies;
}
