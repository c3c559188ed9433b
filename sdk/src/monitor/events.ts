import { CLOSE_CODES } from '../contract.js';

/** One frame of /ws/monitor: a transition on some broker instance, or a summary of many. */
export interface MonitorEvent {
  /** CREATED, PUBLISHED, CONSUMED, ACKED, NACKED, REDELIVERED, DEAD, REPLAYED, … or EVENTS_DROPPED. */
  eventType: string;
  /** null for topic events and for the EVENTS_DROPPED marker. */
  queueName: string | null;
  /** For people; `count` is the number to compute with. */
  detail: string;
  /** How many messages (or created topics and queues) the event stands for: more than 1 for a summary or the drop marker. */
  count: number;
  timestamp: string;
  /** The message the event is about, when the broker names it in a field of its own. */
  messageId?: string;
  /** Why it happened, when the broker says so in a field of its own. */
  reason?: string;
}

/**
 * How a summary of many events of one type reads: `500 messages published to q`. The broker
 * words its summary events with this table, and a feed that sums events itself should too.
 */
export const MONITOR_VERBS: Readonly<Record<string, string>> = {
  PUBLISHED: 'published to',
  CONSUMED: 'consumed from',
  ACKED: 'acknowledged on',
  NACKED: 'rejected on',
  REDELIVERED: 'redelivered on',
  DEAD: 'moved to the dead-letter queue of',
  REPLAYED: 'replayed from the dead-letter queue of',
};

/** What the broker sends in place of the events a slow reader missed; it belongs to no queue. */
export const EVENTS_DROPPED = 'EVENTS_DROPPED';

/** The close code of a socket whose credential was revoked, rotated or signed out. */
export const CLOSE_CREDENTIAL_ENDED = CLOSE_CODES.credentialEnded;

/** A frame as an event, or null when it is not one (nothing to show, never a reason to fail). */
export function parseMonitorEvent(data: unknown): MonitorEvent | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  return monitorEventOf(value);
}

/** An event as a stream's `event` frame carries it (already parsed), or null when it is not one. */
export function monitorEventOf(value: unknown): MonitorEvent | null {
  if (typeof value !== 'object' || value === null) return null;
  const event = value as Record<string, unknown>;
  if (typeof event.eventType !== 'string' || typeof event.detail !== 'string' || typeof event.timestamp !== 'string') return null;
  const queueName = typeof event.queueName === 'string' ? event.queueName : null;
  // A broker older than `count` sends none: such an event stood for one message.
  const count = typeof event.count === 'number' && Number.isInteger(event.count) && event.count >= 0 ? event.count : 1;
  const parsed: MonitorEvent = { eventType: event.eventType, queueName, detail: event.detail, count, timestamp: event.timestamp };
  if (typeof event.messageId === 'string') parsed.messageId = event.messageId;
  if (typeof event.reason === 'string') parsed.reason = event.reason;
  return parsed;
}

/**
 * Whether a reader of one queue should see the event. The drop marker always passes: it says
 * that events of this queue may be among those missed.
 */
export function concernsQueue(event: MonitorEvent, queue: string): boolean {
  return event.eventType === EVENTS_DROPPED || event.queueName === queue.toLowerCase();
}
