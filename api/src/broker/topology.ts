import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { HeaderFilter } from './filter.js';
import { isForeignKeyViolation, isUniqueViolation, pgCode } from '../db/errors.js';
import { withTransaction, type Pool, type Queryable } from '../db/pool.js';
import { refuseDeadLetterCycle } from './deadLetterCycles.js';
import { withMessageTablesLocked } from '../db/messageTablesLock.js';
import { topicDelete, topicInsert, topicListWithQueues } from '../db/queries/topic.js';
import {
  queueDelete,
  queueGet,
  queueInsert,
  queueList,
  queueMessagesDelete,
  queueUpdate,
  type QueueRow,
  type Overflow,
  type OnExpiry,
  type QueueSettings,
  type QueueFixedSettings,
  type Fairness,
  type QueueAttention,
} from '../db/queries/queue.js';

export interface QueueView {
  name: string;
  topic_name: string;
  ack_timeout_seconds: number;
  max_retries: number;
  /** null: the broker's default (MINIQUEUE_ACKED_RETENTION_HOURS). */
  acked_retention_hours: number | null;
  require_ordering_key: boolean;
  /** Absent: every message of the topic. */
  filter?: HeaderFilter;
  created_at: string;
  single_active_consumer: boolean;
  /** null: no limit. */
  max_deliveries_per_second: number | null;
  /** null: no bound. */
  max_messages: number | null;
  max_bytes: number | null;
  overflow: Overflow;
  /** null: no queue-wide expiry. */
  message_ttl_seconds: number | null;
  on_expiry: OnExpiry;
  /** null: dead letters are not routed. */
  dead_letter_topic: string | null;
  dead_letter_keep: boolean;
  /** null: priorities ignored, oldest first. */
  max_priority: number | null;
  fairness: Fairness;
  /** null: no limit per group key. */
  max_in_flight_per_key: number | null;
  /** When the dashboard flags the queue: its own thresholds (null: the default), or muted. */
  attention: QueueAttention;
}

/** `filter` is left out when the queue has none, as the contract says. */
const toQueueView = ({ filter, ...row }: QueueRow): QueueView => ({
  ...row,
  ...(filter === null ? {} : { filter }),
  created_at: row.created_at.toISOString(),
});
const noQueue = (name: string) => new NotFoundError('queue_not_found', `No queue found with the name ${name}`);

export async function createTopic(db: Queryable, name: string) {
  const row = await topicInsert(db, name);
  if (!row) throw new ConflictError('topic_exists', `A topic named ${name} already exists`);
  return { name: row.name, created_at: row.created_at.toISOString() };
}

export async function listTopics(db: Queryable) {
  const rows = await topicListWithQueues(db);
  return rows.map((row) => ({ name: row.name, created_at: row.created_at.toISOString(), queues: row.queues }));
}

export async function deleteTopic(db: Queryable, name: string): Promise<void> {
  try {
    if (!(await topicDelete(db, name))) throw new NotFoundError('topic_not_found', `No topic found with the name ${name}`);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError('topic_has_queues', `Topic ${name} still has queues bound to it; delete them first`);
    }
    throw error;
  }
}

const constraintOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'constraint' in error ? String((error as { constraint: unknown }).constraint) : undefined;

const ownTopicRefused = (topic: string) =>
  new ValidationError(`A queue's dead letters cannot go to its own topic ${topic}`, [
    { field: 'dead_letter_topic', message: "is the queue's own topic (its dead letters would come back to it)" },
  ]);

/** The errors of a queue's dead-letter topic (migration 0019): its own topic, or none of that name. */
function deadLetterTopicError(error: unknown, topic: string | null | undefined): Error | undefined {
  if (pgCode(error) === CHECK_VIOLATION && constraintOf(error) === 'queue_dead_letter_topic_check') return ownTopicRefused(topic ?? '');
  if (isForeignKeyViolation(error) && constraintOf(error) === 'queue_dead_letter_topic_fkey') {
    return new NotFoundError('topic_not_found', `No topic found with the name ${topic} (dead_letter_topic)`);
  }
  return undefined;
}
const CHECK_VIOLATION = '23514';

const perKeyNeedsFairness = () =>
  new ValidationError('max_in_flight_per_key needs fairness by_key', [
    { field: 'max_in_flight_per_key', message: 'limits a group key of a queue with fairness by_key; this queue has none' },
  ]);

/** The settings fair sharing (migration 0022) refuses: a per-key limit without it, or with priorities. */
function fairnessError(queue: QueueSettings & QueueFixedSettings): Error | undefined {
  if (queue.fairness === 'by_key' && queue.maxPriority !== null)
    return new ValidationError('fairness by_key cannot be combined with max_priority', [
      { field: 'fairness', message: 'cannot be combined with max_priority: a queue orders its claims by one of them' },
    ]);
  if (queue.fairness !== 'by_key' && queue.maxInFlightPerKey !== null) return perKeyNeedsFairness();
  return undefined;
}

export async function createQueue(pool: Pool, queue: { name: string; topicName: string } & QueueSettings & QueueFixedSettings): Promise<QueueView> {
  const deadLetterTopic = queue.deadLetterTopic;
  if (deadLetterTopic !== null && deadLetterTopic === queue.topicName) throw ownTopicRefused(queue.topicName);
  const refused = fairnessError(queue);
  if (refused) throw refused;
  const insert = async (db: Queryable) => {
    try {
      return toQueueView(await queueInsert(db, queue));
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError('queue_exists', `A queue named ${queue.name} already exists`);
      throw deadLetterTopicError(error, deadLetterTopic) ?? topicError(error, queue.topicName);
    }
  };
  if (deadLetterTopic === null) return insert(pool);
  return withTransaction(pool, async (tx) => {
    await refuseDeadLetterCycle(tx, queue.name, queue.topicName, deadLetterTopic);
    return insert(tx);
  });
}

const topicError = (error: unknown, topic: string) =>
  isForeignKeyViolation(error) ? new NotFoundError('topic_not_found', `No topic found with the name ${topic}`) : error;

export async function listQueues(db: Queryable): Promise<QueueView[]> {
  return (await queueList(db)).map(toQueueView);
}

export async function getQueue(db: Queryable, name: string): Promise<QueueView> {
  const row = await queueGet(db, name);
  if (!row) throw noQueue(name);
  return toQueueView(row);
}

export async function updateQueue(pool: Pool, name: string, settings: Partial<QueueSettings>): Promise<QueueView> {
  const update = async (db: Queryable) => {
    let row: QueueRow | null;
    try {
      row = await queueUpdate(db, name, settings);
    } catch (error) {
      if (pgCode(error) === CHECK_VIOLATION && constraintOf(error) === 'queue_per_key_needs_fairness') throw perKeyNeedsFairness();
      throw deadLetterTopicError(error, settings.deadLetterTopic) ?? error;
    }
    if (!row) throw noQueue(name);
    return toQueueView(row);
  };
  const deadLetterTopic = settings.deadLetterTopic;
  if (typeof deadLetterTopic !== 'string') return update(pool);
  return withTransaction(pool, async (tx) => {
    const queue = await queueGet(tx, name);
    if (!queue) throw noQueue(name);
    await refuseDeadLetterCycle(tx, name, queue.topic_name, deadLetterTopic);
    return update(tx);
  });
}

/** Deletes a queue and every message it had, with no publish in flight able to leave rows behind. */
export async function deleteQueue(pool: Pool, name: string): Promise<void> {
  await withMessageTablesLocked(pool, async (tx) => {
    if (!(await queueDelete(tx, name))) throw noQueue(name);
    await queueMessagesDelete(tx, name);
  });
}

export async function purgeQueue(pool: Pool, name: string) {
  // As for a delete: no publish in flight may leave a message whose ordering group was purged.
  return withMessageTablesLocked(pool, async (tx) => {
    if (!(await queueGet(tx, name))) throw noQueue(name);
    return { queue: name, purged: await queueMessagesDelete(tx, name) };
  });
}
