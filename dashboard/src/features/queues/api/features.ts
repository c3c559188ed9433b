import type { Queue } from '@miniqueue/sdk';

/** One policy a queue has, short as in RabbitMQ's management UI, with what it means in words. */
export interface QueueFeature {
  label: 'TTL' | 'DLX' | 'Lim' | 'Pri' | 'Fair' | 'SAC' | 'Rate';
  meaning: string;
}

/** The policies a queue was given, in a fixed order; a queue with none has none listed. */
export function queueFeatures(queue: Queue): QueueFeature[] {
  const features: Array<QueueFeature | null> = [
    queue.message_ttl_seconds === null ? null : { label: 'TTL', meaning: `messages expire ${queue.message_ttl_seconds} s after publishing` },
    queue.dead_letter_topic === null ? null : { label: 'DLX', meaning: `dead letters are published to ${queue.dead_letter_topic}` },
    queue.max_messages === null && queue.max_bytes === null ? null : { label: 'Lim', meaning: `bounded (${bounds(queue)}), overflow ${queue.overflow}` },
    queue.max_priority === null ? null : { label: 'Pri', meaning: `priorities 0–${queue.max_priority}` },
    queue.fairness === 'by_key' ? { label: 'Fair', meaning: 'fair sharing between keys' } : null,
    queue.single_active_consumer ? { label: 'SAC', meaning: 'single active consumer' } : null,
    queue.max_deliveries_per_second === null ? null : { label: 'Rate', meaning: `at most ${queue.max_deliveries_per_second} deliveries a second` },
  ];
  return features.filter((feature): feature is QueueFeature => feature !== null);
}

function bounds(queue: Queue): string {
  const parts = [queue.max_messages === null ? null : `${queue.max_messages} messages`, queue.max_bytes === null ? null : `${queue.max_bytes} bytes`];
  return parts.filter(Boolean).join(', ');
}
