import { expectStatus, runLoad, type BenchClient, type LoadResult } from '../http.js';

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
