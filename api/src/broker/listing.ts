import { NotFoundError, ValidationError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import { deadListPage, messageListPage, type Position } from '../db/queries/messageList.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { queueExists } from '../db/queries/queue.js';
import { toMessage, type Message } from './message.js';

export interface MessagePage {
  items: Message[];
  next_cursor: string | null;
}

/**
 * A cursor is the position after which the next page starts, in digits (so the contract can say
 * exactly which cursors exist: any position is one, and past the end the page is empty): the last
 * row's available_at in microseconds since 1970, then its sequence number in 18 digits.
 */
const SEQ_DIGITS = 18;
const encodeCursor = (row: MessageRow) => `${row.position}${String(row.seq).padStart(SEQ_DIGITS, '0')}`;

function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[0-9]{19,36}$/.test(cursor)) throw new ValidationError('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor this server issued' }]);
  return { micros: cursor.slice(0, -SEQ_DIGITS), seq: cursor.slice(-SEQ_DIGITS) };
}

function page(rows: MessageRow[], limit: number): MessagePage {
  // One row more than asked tells whether another page exists.
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items: items.map(toMessage), next_cursor: more ? encodeCursor(items[items.length - 1]) : null };
}

/** One page of a queue's messages, optionally of one status, in the order they became available. */
export async function listMessages(
  db: Queryable,
  filter: { queue: string; status?: string; limit: number; cursor?: string; defaultRetentionHours: number },
): Promise<MessagePage> {
  const after = decodeCursor(filter.cursor);
  if (!(await queueExists(db, filter.queue))) throw new NotFoundError('queue_not_found', `No queue found with the name ${filter.queue}`);
  return page(await messageListPage(db, { ...filter, after, limit: filter.limit + 1 }), filter.limit);
}

/** One page of dead messages, of one queue or of all. */
export async function listDeadMessages(db: Queryable, filter: { queue?: string; limit: number; cursor?: string }): Promise<MessagePage> {
  const after = decodeCursor(filter.cursor);
  if (filter.queue !== undefined && !(await queueExists(db, filter.queue))) {
    throw new NotFoundError('queue_not_found', `No queue found with the name ${filter.queue}`);
  }
  return page(await deadListPage(db, { ...filter, after, limit: filter.limit + 1 }), filter.limit);
}
