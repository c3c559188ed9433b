import type { Queryable } from '../pool.js';
import type { HeaderFilter } from '../../broker/filter.js';
import { DELIVERY_BURST } from './messageClaimGated.js';

/** A CTE that gives a rate-limited queue of `cte` its token bucket, full, unless it has one. */
const TOKENS_FOR = (cte: string) => `tokens AS (
       INSERT INTO queue_delivery_tokens (queue_name, tokens, refilled_at)
       SELECT name, ${DELIVERY_BURST('max_deliveries_per_second')}, now() FROM ${cte} WHERE max_deliveries_per_second IS NOT NULL
       ON CONFLICT (queue_name) DO NOTHING)`;

export interface QueueRow {
  name: string;
  topic_name: string;
  ack_timeout_seconds: number;
  max_retries: number;
  acked_retention_hours: number | null;
  require_ordering_key: boolean;
  filter: HeaderFilter | null;
  created_at: Date;
  single_active_consumer: boolean;
  max_deliveries_per_second: number | null;
  /** null: no bound (migration 0015). bigint columns, read as numbers (bounds are far below 2^53). */
  max_messages: number | null;
  max_bytes: number | null;
  overflow: Overflow;
  /** null: messages do not expire unless their publish says so (migration 0019). */
  message_ttl_seconds: number | null;
  on_expiry: OnExpiry;
  /** null: dead letters stay in the queue's own dead letters only. */
  dead_letter_topic: string | null;
  dead_letter_keep: boolean;
  /** null: priorities are ignored, oldest first (migration 0021). */
  max_priority: number | null;
  /** by_key: shared out between group keys in turn (migration 0022). */
  fairness: Fairness;
  /** With fairness by_key: UNACKED messages per key at most; null: no limit. */
  max_in_flight_per_key: number | null;
  /** When the dashboard flags the queue (migration 0024). */
  attention: QueueAttention;
}

/** A queue's own attention thresholds (null: the flag's default) and mute (migration 0024). */
export interface QueueAttention {
  muted: boolean;
  oldest_pending_seconds: number | null;
  backlog_growth: number | null;
  dead_per_minute: number | null;
}

/** The attention settings as stored: every key, each left out one at its default. */
export const attentionStored = (attention: Partial<QueueAttention>): QueueAttention => ({
  muted: attention.muted ?? false,
  oldest_pending_seconds: attention.oldest_pending_seconds ?? null,
  backlog_growth: attention.backlog_growth ?? null,
  dead_per_minute: attention.dead_per_minute ?? null,
});

/** What the expiry sweep does with an expired message (jobs/expirySweeper.ts). */
export type OnExpiry = 'dead_letter' | 'drop';

/** What a publish that does not fit in a bounded queue does (broker/bounds.ts). */
export type Overflow = 'reject_publish' | 'reject_copy' | 'dead_letter_oldest' | 'drop_oldest';

const COLUMNS =
  'name, topic_name, ack_timeout_seconds, max_retries, acked_retention_hours, require_ordering_key, filter, created_at, single_active_consumer, max_deliveries_per_second, max_messages::float8 AS max_messages, max_bytes::float8 AS max_bytes, overflow, message_ttl_seconds, on_expiry, dead_letter_topic, dead_letter_keep, max_priority, fairness, max_in_flight_per_key, attention';

export interface QueueSettings {
  ackTimeoutSeconds: number;
  maxRetries: number;
  /** null: the broker's default. */
  ackedRetentionHours: number | null;
  /** Publishes without an ordering key to this queue's topic are refused. */
  requireOrderingKey: boolean;
  /** null: every message of the topic. */
  filter: HeaderFilter | null;
  /** Only one consumer (the claim's holder) is given messages at a time (messageClaimGated.ts). */
  singleActiveConsumer: boolean;
  /** Deliveries per second across every instance; null: no limit. */
  maxDeliveriesPerSecond: number | null;
  /** At most this many messages (PENDING, BLOCKED, UNACKED) live at once; null: unbounded. */
  maxMessages: number | null;
  /** At most this many payload bytes live at once; null: unbounded. */
  maxBytes: number | null;
  overflow: Overflow;
  /** Seconds a message lives after its publish; null: no queue-wide expiry. */
  messageTtlSeconds: number | null;
  onExpiry: OnExpiry;
  /** A topic its dead letters are published to; null: none. */
  deadLetterTopic: string | null;
  /** A routed dead letter also stays in the queue's dead letters. */
  deadLetterKeep: boolean;
  /** With fairness by_key: UNACKED messages per group key at most; null: no limit. */
  maxInFlightPerKey: number | null;
  /** When the dashboard flags it: its own thresholds, or muted (set as a whole). */
  attention: QueueAttention;
}

/** What a queue is created with beyond its settings: fixed for its life (migration 0021). */
export interface QueueFixedSettings {
  /** Highest priority its claims honour (1-9), highest first; null: oldest first, priorities ignored. */
  maxPriority: number | null;
  /** by_key: claims go round the group keys in turn (migration 0022); none: oldest first. */
  fairness: Fairness;
}

export type Fairness = 'none' | 'by_key';

/** Inserts a queue and its acked counters; a duplicate name raises 23505, an unknown topic 23503. */
export async function queueInsert(db: Queryable, queue: { name: string; topicName: string } & QueueSettings & QueueFixedSettings): Promise<QueueRow> {
  const { rows } = await db.query<QueueRow>(
    `WITH q AS (
       INSERT INTO queue (name, topic_name, ack_timeout_seconds, max_retries, acked_retention_hours, require_ordering_key, filter,
                          single_active_consumer, max_deliveries_per_second, max_messages, max_bytes, overflow,
                          message_ttl_seconds, on_expiry, dead_letter_topic, dead_letter_keep, max_priority, fairness, max_in_flight_per_key,
                          attention)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20::jsonb) RETURNING ${COLUMNS}),
     counters AS (INSERT INTO queue_counter (queue_name, shard) SELECT q.name, s FROM q, generate_series(0, 15) AS s),
     ${TOKENS_FOR('q')},
     fair_turn AS (INSERT INTO queue_fair_turn (queue_name) SELECT name FROM q WHERE fairness = 'by_key')
     SELECT * FROM q`,
    [
      queue.name,
      queue.topicName,
      queue.ackTimeoutSeconds,
      queue.maxRetries,
      queue.ackedRetentionHours,
      queue.requireOrderingKey,
      queue.filter === null ? null : JSON.stringify(queue.filter),
      queue.singleActiveConsumer,
      queue.maxDeliveriesPerSecond,
      queue.maxMessages,
      queue.maxBytes,
      queue.overflow,
      queue.messageTtlSeconds,
      queue.onExpiry,
      queue.deadLetterTopic,
      queue.deadLetterKeep,
      queue.maxPriority,
      queue.fairness,
      queue.maxInFlightPerKey,
      JSON.stringify(queue.attention),
    ],
  );
  return rows[0];
}

/** A queue that routes its dead letters: an edge from its topic to its dead-letter topic. */
export interface DeadLetterRoute {
  name: string;
  topic_name: string;
  dead_letter_topic: string;
}

/** Every queue that routes its dead letters somewhere (for the cycle check of broker/deadLetterCycles.ts). */
export async function queueDeadLetterRoutes(db: Queryable): Promise<DeadLetterRoute[]> {
  const { rows } = await db.query<DeadLetterRoute>('SELECT name, topic_name, dead_letter_topic FROM queue WHERE dead_letter_topic IS NOT NULL ORDER BY name');
  return rows;
}

/** Changes the settings given (undefined = keep); null when there is no such queue. */
export async function queueUpdate(db: Queryable, name: string, settings: Partial<QueueSettings>): Promise<QueueRow | null> {
  const { rows } = await db.query<QueueRow>(
    `WITH q AS (UPDATE queue SET ack_timeout_seconds = coalesce($2, ack_timeout_seconds),
                      max_retries = coalesce($3, max_retries),
                      acked_retention_hours = CASE WHEN $4 THEN $5 ELSE acked_retention_hours END,
                      require_ordering_key = coalesce($6, require_ordering_key),
                      filter = CASE WHEN $7 THEN $8::jsonb ELSE filter END,
                      single_active_consumer = coalesce($9, single_active_consumer),
                      max_deliveries_per_second = CASE WHEN $10 THEN $11::int ELSE max_deliveries_per_second END,
                      max_messages = CASE WHEN $12 THEN $13::bigint ELSE max_messages END,
                      max_bytes = CASE WHEN $14 THEN $15::bigint ELSE max_bytes END,
                      overflow = coalesce($16, overflow),
                      message_ttl_seconds = CASE WHEN $17 THEN $18::int ELSE message_ttl_seconds END,
                      on_expiry = coalesce($19, on_expiry),
                      dead_letter_topic = CASE WHEN $20 THEN $21::text ELSE dead_letter_topic END,
                      dead_letter_keep = coalesce($22, dead_letter_keep),
                      max_in_flight_per_key = CASE WHEN $23 THEN $24::int ELSE max_in_flight_per_key END,
                      attention = coalesce($25::jsonb, attention)
      WHERE name = $1 RETURNING ${COLUMNS}),
     ${TOKENS_FOR('q')}
     SELECT * FROM q`,
    [
      name,
      settings.ackTimeoutSeconds ?? null,
      settings.maxRetries ?? null,
      settings.ackedRetentionHours !== undefined,
      settings.ackedRetentionHours ?? null,
      settings.requireOrderingKey ?? null,
      settings.filter !== undefined,
      settings.filter ? JSON.stringify(settings.filter) : null,
      settings.singleActiveConsumer ?? null,
      settings.maxDeliveriesPerSecond !== undefined,
      settings.maxDeliveriesPerSecond ?? null,
      settings.maxMessages !== undefined,
      settings.maxMessages ?? null,
      settings.maxBytes !== undefined,
      settings.maxBytes ?? null,
      settings.overflow ?? null,
      settings.messageTtlSeconds !== undefined,
      settings.messageTtlSeconds ?? null,
      settings.onExpiry ?? null,
      settings.deadLetterTopic !== undefined,
      settings.deadLetterTopic ?? null,
      settings.deadLetterKeep ?? null,
      settings.maxInFlightPerKey !== undefined,
      settings.maxInFlightPerKey ?? null,
      settings.attention === undefined ? null : JSON.stringify(settings.attention),
    ],
  );
  return rows[0] ?? null;
}

export async function queueList(db: Queryable): Promise<QueueRow[]> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queue ORDER BY name`);
  return rows;
}

export async function queueGet(db: Queryable, name: string): Promise<QueueRow | null> {
  const { rows } = await db.query<QueueRow>(`SELECT ${COLUMNS} FROM queue WHERE name = $1`, [name]);
  return rows[0] ?? null;
}

export async function queueExists(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM queue WHERE name = $1', [name]);
  return rowCount === 1;
}

/** Deletes a queue (its counters go with it); false when there was none. */
export async function queueDelete(db: Queryable, name: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM queue WHERE name = $1', [name]);
  return rowCount === 1;
}

/** Deletes every message of a queue, wherever it is, its ordering keys' positions, and zeroes its counts. */
export async function queueMessagesDelete(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ deleted: number }>(
    `WITH live AS (DELETE FROM message WHERE queue_name = $1 RETURNING 1),
          dead AS (DELETE FROM message_dead WHERE queue_name = $1 RETURNING 1),
          acked AS (DELETE FROM message_acked WHERE queue_name = $1 RETURNING 1),
          counted AS (UPDATE queue_counter SET acked = 0, pending = 0, unacked = 0, dead = 0, bytes = 0 WHERE queue_name = $1),
          groups AS (DELETE FROM ordering_group WHERE queue_name = $1)
     SELECT ((SELECT count(*) FROM live) + (SELECT count(*) FROM dead) + (SELECT count(*) FROM acked))::int AS deleted`,
    [name],
  );
  return rows[0].deleted;
}
