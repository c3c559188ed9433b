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

// A cursor is opaque to callers: the position after which the next page starts.
const encodeCursor = (row: MessageRow) => Buffer.from(`v2|${row.position}|${row.seq}`).toString('base64url');

const CURSOR = /^v2\|(\d{4,6}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:Z|[+-]\d\d(?::\d\d)?))\|(\d{1,18})$/;

function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new ValidationError('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor this server issued' }]);
  return { availableAt: match[1], seq: Number(match[2]) };
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
  if (!(await queueExists(db, filter.queue))) throw new NotFoundError(`No queue found with the name ${filter.queue}`);
  return page(await messageListPage(db, { ...filter, after, limit: filter.limit + 1 }), filter.limit);
}

/** One page of dead messages, of one queue or of all. */
export async function listDeadMessages(db: Queryable, filter: { queue?: string; limit: number; cursor?: string }): Promise<MessagePage> {
  const after = decodeCursor(filter.cursor);
  if (filter.queue !== undefined && !(await queueExists(db, filter.queue))) {
    throw new NotFoundError(`No queue found with the name ${filter.queue}`);
  }
  return page(await deadListPage(db, { ...filter, after, limit: filter.limit + 1 }), filter.limit);
}
