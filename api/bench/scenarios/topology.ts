import { type BenchClient, expectStatus } from '../http.js';

/** ~200 bytes of JSON, the size of a typical event (the same payload for every system measured). */
export const PAYLOAD = JSON.stringify({ orderId: 42, customer: 'c-1001', items: [{ sku: 'A-1', qty: 2 }], note: 'x'.repeat(120) });

export interface Keys {
  publish: string;
  consume: string;
}

/** A queue's settings beyond its name and topic, as POST /api/v1/queues takes them (max_priority, fairness, ...). */
export type QueueSettings = Record<string, unknown>;
/** Topics, each with its queues and their settings. */
export type Topics = Record<string, Record<string, QueueSettings>>;

/**
 * A topic and the queues bound to it, created through the admin API: their names, or each name
 * with more of its settings. The lease is far longer than the run, so nothing expires and comes
 * back while we measure.
 */
export async function createTopic(
  admin: BenchClient,
  topic: string,
  queues: string[] | Record<string, QueueSettings>,
  env: { ackTimeoutSeconds?: number } = {},
): Promise<void> {
  expectStatus(await admin.request('POST', '/api/v1/topics', { name: topic }), 201);
  const settings: [string, QueueSettings][] = Array.isArray(queues) ? queues.map((queue) => [queue, {}]) : Object.entries(queues);
  for (const [queue, more] of settings) {
    expectStatus(
      await admin.request('POST', '/api/v1/queues', { name: queue, topic_name: topic, ack_timeout_seconds: env.ackTimeoutSeconds ?? 3600, ...more }),
      201,
    );
  }
}

/** One publishing and one consuming client, as real programs would be registered. */
export async function createKeys(admin: BenchClient): Promise<Keys> {
  const key = async (name: string, scopes: string[]) =>
    expectStatus(await admin.request('POST', '/api/v1/clients', { name, scopes }), 201).body.api_key as string;
  return { publish: await key('bench-publisher', ['publish:*']), consume: await key('bench-consumer', ['consume:*']) };
}

/** Empties a queue between workloads so that its leftovers do not weigh on the next one. */
export async function purge(admin: BenchClient, queue: string): Promise<void> {
  expectStatus(await admin.request('POST', `/api/v1/queues/${queue}/purge`), 200);
}
