import type { MessageRow } from '../db/queries/messageRow.js';

/** The contract's message shape. */
export interface Message {
  message_id: string;
  queue: string;
  topic: string;
  payload: string;
  headers: Record<string, string>;
  status: MessageRow['status'];
  retry_count: number;
  published_at: string;
  available_at: string;
  consumer_id: string | null;
  unacked_at: string | null;
  lease_expires_at: string | null;
  ordering_key: string | null;
  /** When it expires; null: never. */
  expires_at: string | null;
  /** In a queue with a max_priority; null elsewhere. */
  priority: number | null;
  /** In a queue with fairness by_key; null elsewhere. */
  group_key: string | null;
  /** DEAD messages of listings only. */
  dead_at?: string;
  dead_reason?: NonNullable<MessageRow['dead_reason']>;
  dead_detail?: string | null;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toMessage(row: MessageRow): Message {
  const death =
    row.dead_at && row.dead_reason ? { dead_at: row.dead_at.toISOString(), dead_reason: row.dead_reason, dead_detail: row.dead_detail ?? null } : {};
  return {
    message_id: row.id,
    queue: row.queue_name,
    topic: row.topic_name,
    payload: row.payload,
    headers: row.headers,
    status: row.status,
    retry_count: row.retry_count,
    published_at: row.published_at.toISOString(),
    available_at: row.available_at.toISOString(),
    consumer_id: row.consumer_id,
    unacked_at: iso(row.unacked_at),
    lease_expires_at: iso(row.lease_expires_at),
    ordering_key: row.ordering_key,
    expires_at: iso(row.expires_at),
    priority: row.priority,
    group_key: row.group_key,
    ...death,
  };
}
