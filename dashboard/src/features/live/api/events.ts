/** One frame of /ws/monitor. */
export interface MonitorEvent {
  eventType: string;
  /** null for topic events and for the dropped-events marker. */
  queueName: string | null;
  detail: string;
  timestamp: string;
}

/** What the broker sends instead of events a dashboard could not take in time. */
export const EVENTS_DROPPED = 'EVENTS_DROPPED';

/** The most events the feed keeps; older ones fall off the end. */
export const FEED_LIMIT = 50;

export function parseMonitorEvent(data: unknown): MonitorEvent | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const event = value as Record<string, unknown>;
  if (typeof event.eventType !== 'string' || typeof event.detail !== 'string' || typeof event.timestamp !== 'string') return null;
  const queueName = typeof event.queueName === 'string' ? event.queueName : null;
  return { eventType: event.eventType, queueName, detail: event.detail, timestamp: event.timestamp };
}

/** Newest first, capped: the feed as it is shown. */
export function appendToFeed(feed: readonly MonitorEvent[], arrived: readonly MonitorEvent[], limit = FEED_LIMIT): MonitorEvent[] {
  return [...arrived].reverse().concat(feed).slice(0, limit);
}

/**
 * How many messages one event stands for: a large statement arrives as one summary event
 * ("500 messages published to q"), everything else is one message.
 */
export function messagesIn(event: MonitorEvent): number {
  const summary = /^(\d+) messages /.exec(event.detail);
  return summary ? Number(summary[1]) : 1;
}
