import type { Client, ClientWithKey, MiniQueue } from '@miniqueue/sdk';

export const loadClients = (mq: MiniQueue, signal: AbortSignal): Promise<Client[]> => mq.clients.list({ signal });

export const registerClient = (mq: MiniQueue, name: string, scopes: string[]): Promise<ClientWithKey> => mq.clients.create(name, scopes);

export const rotateKey = (mq: MiniQueue, name: string): Promise<ClientWithKey> => mq.clients.rotate(name);

export const revokeClient = (mq: MiniQueue, name: string): Promise<void> => mq.clients.delete(name);

/** Topics and queues to offer in the scope picker. */
export async function loadScopeTargets(mq: MiniQueue, signal: AbortSignal): Promise<{ topics: string[]; queues: string[] }> {
  const [topics, queues] = await Promise.all([mq.topics.list({ signal }), mq.queues.list({ signal })]);
  return { topics: topics.map((topic) => topic.name), queues: queues.map((queue) => queue.name) };
}
