import { isValidName, NAME_MAX_LENGTH, type Fairness, type HeaderFilter, type MiniQueue, type Queue, type Topic } from '@miniqueue/sdk';

export interface Topology {
  topics: Topic[];
  queues: Map<string, Queue>;
}

export async function loadTopology(mq: MiniQueue, signal: AbortSignal): Promise<Topology> {
  const [topics, queues] = await Promise.all([mq.topics.list({ signal }), mq.queues.list({ signal })]);
  return { topics, queues: new Map(queues.map((queue) => [queue.name, queue])) };
}

export const createTopic = (mq: MiniQueue, name: string) => mq.topics.create(name);

export interface NewQueueSettings {
  ackTimeoutSeconds: number;
  maxRetries: number;
  filter?: HeaderFilter;
  requireOrderingKey?: boolean;
  /** 1-9: highest priority first; undefined: oldest first. Fixed for the queue's life. */
  maxPriority?: number;
  /** 'by_key': claims take turns between group keys; undefined: oldest first. Fixed for the queue's life, and not with maxPriority. */
  fairness?: Fairness;
  /** With fairness 'by_key': at most this many unacked messages per group key, 1-10000; undefined: no limit. */
  maxInFlightPerKey?: number;
}

export const createQueue = (mq: MiniQueue, name: string, topic: string, settings: NewQueueSettings) => mq.queues.create(name, topic, settings);

/**
 * The filter field: empty is no filter; otherwise a JSON object, which the broker checks in full
 * (its 400 names what is wrong). Only "is it a JSON object at all" is checked here.
 */
export function filterOf(text: string): { filter?: HeaderFilter; problem?: string } {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { problem: 'Not valid JSON.' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'A JSON object, e.g. {"header": "region", "equals": "eu"}.' };
  return { filter: parsed as HeaderFilter };
}

export const deleteTopic = (mq: MiniQueue, name: string) => mq.topics.delete(name);

export const deleteQueue = (mq: MiniQueue, name: string) => mq.queues.delete(name);

/** The broker's rule for names, checked before sending so the form can say what is wrong at once. */
export function nameProblem(name: string): string | null {
  if (name === '') return 'Enter a name.';
  if (name.length > NAME_MAX_LENGTH) return `At most ${NAME_MAX_LENGTH} characters.`;
  if (name === '.' || name === '..') return 'A name cannot be only "." or "..".';
  if (!isValidName(name)) return 'Use only letters, digits, dots, underscores and hyphens.';
  return null;
}
