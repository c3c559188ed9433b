import type { MonitorEvent } from '@miniqueue/sdk';

/** A monitor event as `tail --json` prints it: the broker's fields, plus which message and why. */
export interface TailEvent extends Omit<MonitorEvent, 'messageId' | 'reason'> {
  /** The message the event is about; null for summaries ("500 messages …"), topics and queues. */
  messageId: string | null;
  /**
   * Why it happened, where the event says: `lease_expired` (REDELIVERED, or DEAD with no retries
   * left), `requeued` or `rejected` (NACKED), `replayed` (REPLAYED); null otherwise.
   */
  reason: string | null;
}

const MESSAGE_ID = /^Message ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}) /;

/**
 * The monitor's frames name a single message and its cause only in `detail` (their fields are
 * eventType, queueName, detail, count, timestamp): they are read from its fixed opening
 * ("Message <uuid> …") and wording here, and taken from the frame itself when a broker sends them.
 */
export function tailEventOf(event: MonitorEvent): TailEvent {
  const messageId = event.messageId ?? MESSAGE_ID.exec(event.detail)?.[1] ?? null;
  const reason = event.reason ?? (messageId ? reasonOf(event) : null);
  return { eventType: event.eventType, queueName: event.queueName, messageId, reason, detail: event.detail, count: event.count, timestamp: event.timestamp };
}

function reasonOf(event: MonitorEvent): string | null {
  switch (event.eventType) {
    case 'REDELIVERED':
      return 'lease_expired';
    case 'DEAD':
      return event.detail.includes('lease expired') ? 'lease_expired' : 'rejected';
    case 'NACKED':
      return event.detail.endsWith('and requeued') ? 'requeued' : 'rejected';
    case 'REPLAYED':
      return 'replayed';
    default:
      return null;
  }
}
