import { expectStatus, runLoad, type BenchClient, type LoadResult } from '../http.js';

/** A topic with one queue that has these delivery gates (single_active_consumer, max_deliveries_per_second). */
export async function createGatedTopic(admin: BenchClient, topic: string, queue: string, gates: object): Promise<void> {
  expectStatus(await admin.request('POST', '/api/v1/topics', { name: topic }), 201);
  expectStatus(await admin.request('POST', '/api/v1/queues', { name: queue, topic_name: topic, ack_timeout_seconds: 3600, ...gates }), 201);
}

/**
 * Consumers that could go much faster than the queue's limit: each loop long-polls for up to
 * `size` messages and acks them in one batch, for `seconds`. The rate is what the limit let through.
 */
export function receiveAckWaiting(client: BenchClient, queue: string, size: number, seconds: number, concurrency: number): Promise<LoadResult> {
  const path = `/api/v1/queues/${queue}/receive`;
  return runLoad({ concurrency, maxSteps: Number.MAX_SAFE_INTEGER, maxSeconds: seconds }, async () => {
    const received = expectStatus(await client.request('POST', path, { max_messages: size, wait_seconds: 1 }), 200);
    const ids: string[] = received.body.messages.map((message: { message_id: string }) => message.message_id);
    if (ids.length === 0) return { messages: 0, requests: 1 };
    expectStatus(await client.request('POST', '/api/v1/messages/ack', { message_ids: ids }), 200);
    return { messages: ids.length, requests: 2 };
  });
}
