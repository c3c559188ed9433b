// What /ws/monitor sends, one JSON object per frame, and its summaries' wording: the SDK's, for the broker and its readers alike.
import { MONITOR_VERBS, type MonitorEvent } from '@miniqueue/sdk';
import type { MonitorGroup, TopologyEvent } from './channels.js';

/** A statement's group is shown message by message up to this size, then as one summary event. */
export const MAX_EVENTS_PER_GROUP = 20;

/** The broker's transition names (broker/changes.ts) → the contract's event types, in order. */
const EVENT_TYPES: Record<string, string[]> = {
  PUBLISHED: ['PUBLISHED'],
  CONSUMED: ['CONSUMED'],
  ACKED: ['ACKED'],
  NACKED: ['NACKED'],
  NACKED_DEAD: ['NACKED', 'DEAD'],
  REDELIVERED: ['REDELIVERED'],
  EXPIRED_DEAD: ['DEAD'],
  TTL_DEAD: ['DEAD'],
  REPLAYED: ['REPLAYED'],
};

const one: Record<string, (id: string, queue: string, cause: string) => string> = {
  PUBLISHED: (id, queue) => `Message ${id} published to ${queue}`,
  CONSUMED: (id, queue) => `Message ${id} consumed from ${queue}`,
  ACKED: (id, queue) => `Message ${id} acknowledged on ${queue}`,
  NACKED: (id, queue, cause) => (cause === 'NACKED_DEAD' ? `Message ${id} rejected on ${queue}` : `Message ${id} rejected on ${queue} and requeued`),
  REDELIVERED: (id, queue) => `Message ${id} redelivered on ${queue}: its lease expired`,
  DEAD: (id, queue, cause) =>
    cause === 'EXPIRED_DEAD'
      ? `Message ${id} moved to the dead-letter queue of ${queue}: lease expired with no retries left`
      : cause === 'TTL_DEAD'
        ? `Message ${id} moved to the dead-letter queue of ${queue}: its time to live ran out`
        : `Message ${id} moved to the dead-letter queue of ${queue}`,
  REPLAYED: (id, queue) => `Message ${id} replayed from the dead-letter queue of ${queue}`,
};

/**
 * One group of transitions as monitor events: message by message up to 20, else one summary event
 * per type ("500 messages published to q").
 */
export function monitorEventsOf(event: MonitorGroup, timestamp: string): MonitorEvent[] {
  const types = EVENT_TYPES[event.event];
  if (!types) return [];
  const ids = Array.isArray(event.ids) ? event.ids : [];
  const summarize = event.count > ids.length || ids.length > MAX_EVENTS_PER_GROUP;
  return types.flatMap((eventType) =>
    summarize
      ? [{ eventType, queueName: event.queue, detail: `${event.count} messages ${MONITOR_VERBS[eventType]} ${event.queue}`, count: event.count, timestamp }]
      : ids.map((id) => ({ eventType, queueName: event.queue, detail: one[eventType](id, event.queue, event.event), count: 1, timestamp })),
  );
}

/** A topic or queue was created: CREATED. Deletions have no event type in the contract. */
export function monitorEventsOfTopology(event: TopologyEvent, timestamp: string): MonitorEvent[] {
  if (event.op !== 'INSERT') return [];
  const what = event.kind === 'queue' ? 'Queue' : 'Topic';
  return [{ eventType: 'CREATED', queueName: event.kind === 'queue' ? event.name : null, detail: `${what} ${event.name} created`, count: 1, timestamp }];
}

/** The visible marker a dashboard gets in place of events it was too slow (or too busy) to take. */
export function droppedMarker(dropped: number, timestamp: string): MonitorEvent {
  return { eventType: 'EVENTS_DROPPED', queueName: null, detail: `${dropped} events dropped`, count: dropped, timestamp };
}
