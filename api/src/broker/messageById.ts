import { NotFoundError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import { messageFindById } from '../db/queries/messageFind.js';
import { toMessage, type Message } from './message.js';

/**
 * The answer for an id no message has, and for a message of a queue the caller may not use: the
 * same words, so that reading or settling tells nothing about other queues' messages.
 */
export const messageNotFound = (id: string): NotFoundError => new NotFoundError('message_not_found', `No message found with the id ${id}`);

/**
 * One message, for a reader who may read the messages of `queues` (null: of every queue). A
 * message of a queue the reader may not read is answered exactly as one that does not exist, so
 * that the answer tells nothing about the messages of other queues.
 */
export async function getMessage(db: Queryable, id: string, reader: { queues: string[] | null; defaultRetentionHours: number }): Promise<Message> {
  const row = await messageFindById(db, id, reader.defaultRetentionHours);
  if (!row || (reader.queues !== null && !reader.queues.includes(row.queue_name))) {
    throw messageNotFound(id);
  }
  return toMessage(row);
}
