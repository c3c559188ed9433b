import type { Queue } from '@miniqueue/sdk';

/**
 * The policies a queue has, short as in RabbitMQ's management UI (and the dashboard's Topics &
 * queues page), in a fixed order: TTL (message_ttl_seconds), DLX (dead_letter_topic), Lim
 * (max_messages or max_bytes), Pri (max_priority), Fair (fairness by_key), SAC (single active
 * consumer), Rate (max_deliveries_per_second).
 */
export function queueFeatures(queue: Queue): string[] {
  const has: Array<[string, boolean]> = [
    ['TTL', queue.message_ttl_seconds !== null],
    ['DLX', queue.dead_letter_topic !== null],
    ['Lim', queue.max_messages !== null || queue.max_bytes !== null],
    ['Pri', queue.max_priority !== null],
    ['Fair', queue.fairness === 'by_key'],
    ['SAC', queue.single_active_consumer],
    ['Rate', queue.max_deliveries_per_second !== null],
  ];
  return has.filter(([, present]) => present).map(([label]) => label);
}

/** What the labels of the FEATURES column mean (queues:list --help). */
export const FEATURES_LEGEND =
  'FEATURES: TTL a message time to live, DLX a dead-letter topic, Lim a bound (max messages or bytes), Pri priorities, Fair fair sharing by key, SAC a single active consumer, Rate a delivery rate limit.';
