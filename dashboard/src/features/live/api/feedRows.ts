import { EVENTS_DROPPED, MONITOR_VERBS, type MonitorEvent } from '@miniqueue/sdk';

/**
 * One line of the feed: the events of one type on one queue within one second, summed. At a few
 * events a second a row is one event; at hundreds a second the rows stay readable, one per
 * second and kind, with the count of what happened.
 */
export interface FeedRow {
  key: string;
  /** The broker's timestamp of the latest event in the row. */
  timestamp: string;
  eventType: string;
  queueName: string | null;
  /** Messages the row stands for (a summary event counts for all of its messages). */
  count: number;
  /** The latest events' own words, newest first, at most DETAILS_KEPT. */
  details: string[];
  /** How many frames were merged into the row. */
  events: number;
}

/** Rows kept for the pages to filter from; a queue's or a type's rows stay findable for a while. */
export const FEED_ROW_LIMIT = 500;
/** Rows a page shows at once. */
export const FEED_ROWS_SHOWN = 50;
const DETAILS_KEPT = 10;

const secondOf = (timestamp: string): string => timestamp.slice(0, 19);

let sequence = 0;

/** Adds events (oldest first, as they arrived) to rows (newest first). Rows are never mutated. */
export function appendToFeed(rows: readonly FeedRow[], arrived: readonly MonitorEvent[], limit = FEED_ROW_LIMIT): FeedRow[] {
  const next = [...rows];
  for (const event of arrived) {
    const second = secondOf(event.timestamp);
    // The rows of the newest second sit at the head; an event of that second joins its kind's row.
    let index = -1;
    for (let i = 0; i < next.length && secondOf(next[i].timestamp) === second; i++) {
      if (next[i].eventType === event.eventType && next[i].queueName === event.queueName) {
        index = i;
        break;
      }
    }
    if (index === -1) {
      next.unshift({
        key: `${++sequence}`,
        timestamp: event.timestamp,
        eventType: event.eventType,
        queueName: event.queueName,
        count: event.count,
        details: [event.detail],
        events: 1,
      });
      continue;
    }
    const row = next[index];
    next[index] = {
      ...row,
      timestamp: event.timestamp > row.timestamp ? event.timestamp : row.timestamp,
      count: row.count + event.count,
      details: [event.detail, ...row.details].slice(0, DETAILS_KEPT),
      events: row.events + 1,
    };
  }
  return next.slice(0, limit);
}

/** The row in words: the event's own when it is one event, a sum in the broker's wording when many. */
export function describeRow(row: FeedRow): string {
  if (row.eventType === EVENTS_DROPPED) {
    return `${row.count} events dropped: the feed could not keep up, so some events were skipped. Counts stay exact.`;
  }
  if (row.events === 1) return row.details[0];
  if (row.eventType === 'CREATED') return `${row.count} topics and queues created`;
  const verb = MONITOR_VERBS[row.eventType] ?? `${row.eventType.toLowerCase()} on`;
  return `${row.count} ${row.count === 1 ? 'message' : 'messages'} ${verb} ${row.queueName ?? 'a topic'}`;
}

/** The event types the feed knows, in the order a message lives through them. */
export const EVENT_TYPES = ['CREATED', 'PUBLISHED', 'CONSUMED', 'ACKED', 'NACKED', 'REDELIVERED', 'DEAD', 'REPLAYED', EVENTS_DROPPED] as const;

export interface FeedFilter {
  eventType?: string;
  queue?: string;
}

/** Rows of one type and/or one queue; the drop marker passes a queue filter, since it may hide that queue's events. */
export function filterRows(rows: readonly FeedRow[], filter: FeedFilter): FeedRow[] {
  return rows.filter(
    (row) =>
      (!filter.eventType || row.eventType === filter.eventType) &&
      (!filter.queue || row.queueName === filter.queue || (row.eventType === EVENTS_DROPPED && !filter.eventType)),
  );
}

/** A long message id shortened to its first 8 characters, where room is short. */
export const shortenIds = (text: string): string => text.replace(/\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '$1…');
