import { ConflictError, NotFoundError } from '../errors.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
import type { Queryable } from '../db/pool.js';
import { topicDelete, topicInsert, topicListWithQueues } from '../db/queries/topic.js';
import { queueDelete, queueInsert, queueList, queuePurge, type QueueRow } from '../db/queries/queue.js';

export interface QueueView {
  name: string;
  topic_name: string;
  ack_timeout_seconds: number;
  max_retries: number;
  created_at: string;
}

const toQueueView = (row: QueueRow): QueueView => ({ ...row, created_at: row.created_at.toISOString() });

export async function createTopic(db: Queryable, name: string) {
  const row = await topicInsert(db, name);
  if (!row) throw new ConflictError(`A topic named ${name} already exists`);
  return { name: row.name, created_at: row.created_at.toISOString() };
}

export async function listTopics(db: Queryable) {
  const rows = await topicListWithQueues(db);
  return rows.map((row) => ({ name: row.name, created_at: row.created_at.toISOString(), queues: row.queues }));
}

export async function deleteTopic(db: Queryable, name: string): Promise<void> {
  try {
    if (!(await topicDelete(db, name))) throw new NotFoundError(`No topic found with the name ${name}`);
  } catch (error) {
    if (isForeignKeyViolation(error)) {
      throw new ConflictError(`Topic ${name} still has queues bound to it; delete them first`);
    }
    throw error;
  }
}

export async function createQueue(
  db: Queryable,
  queue: { name: string; topicName: string; ackTimeoutSeconds: number; maxRetries: number },
): Promise<QueueView> {
  try {
    return toQueueView(await queueInsert(db, queue));
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError(`A queue named ${queue.name} already exists`);
    if (isForeignKeyViolation(error)) throw new NotFoundError(`No topic found with the name ${queue.topicName}`);
    throw error;
  }
}

export async function listQueues(db: Queryable): Promise<QueueView[]> {
  return (await queueList(db)).map(toQueueView);
}

export async function deleteQueue(db: Queryable, name: string): Promise<void> {
  if (!(await queueDelete(db, name))) throw new NotFoundError(`No queue found with the name ${name}`);
}

export async function purgeQueue(db: Queryable, name: string) {
  const purged = await queuePurge(db, name);
  if (purged === null) throw new NotFoundError(`No queue found with the name ${name}`);
  return { queue: name, purged };
}
