import { randomBytes } from 'node:crypto';
import type { MiniQueue } from '@miniqueue/sdk';

/** Far longer than any run, so no message's lease ends and brings it back while we measure. */
const ACK_TIMEOUT_SECONDS = 3600;

export interface BenchTopology {
  topic: string;
  queues: string[];
  producerKey: string;
  consumerKey: string;
  /** Deletes the queues, the topic and the clients; returns what could not be deleted. */
  remove(): Promise<string[]>;
}

/**
 * A topic named bench-<random> with `fanOut` queues bound to it, and one client to publish and
 * one to consume with only those scopes, as programs would be registered. Whatever was created
 * before a failure is removed before the failure is passed on.
 */
export async function createTopology(admin: MiniQueue, fanOut: number): Promise<BenchTopology> {
  const topic = `bench-${randomBytes(4).toString('hex')}`;
  const queues: string[] = [];
  const clients: string[] = [];
  let topicCreated = false;
  const remove = async (): Promise<string[]> => {
    const problems: string[] = [];
    const attempt = async (what: string, call: () => Promise<unknown>) => {
      await call().catch((error: Error) => problems.push(`${what}: ${error.message}`));
    };
    for (const queue of queues) await attempt(`queue ${queue}`, () => admin.queues.delete(queue));
    if (topicCreated) await attempt(`topic ${topic}`, () => admin.topics.delete(topic));
    for (const client of clients) await attempt(`client ${client}`, () => admin.clients.delete(client));
    return problems;
  };
  try {
    await admin.topics.create(topic);
    topicCreated = true;
    for (let i = 1; i <= fanOut; i += 1) {
      const queue = `${topic}-${i}`;
      await admin.queues.create(queue, topic, { ackTimeoutSeconds: ACK_TIMEOUT_SECONDS });
      queues.push(queue);
    }
    const key = async (role: string, scopes: string[]) => {
      const name = `${topic}-${role}`;
      const created = await admin.clients.create(name, scopes);
      clients.push(name);
      return created.api_key;
    };
    const producerKey = await key('producer', [`publish:${topic}`]);
    const consumerKey = await key(
      'consumer',
      queues.map((queue) => `consume:${queue}`),
    );
    return { topic, queues, producerKey, consumerKey, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
