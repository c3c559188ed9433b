import { NotFoundError, ValidationError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import { messageListPage } from '../db/queries/message.js';
import { queueExists } from '../db/queries/queue.js';
import { toMessage, type Message } from './message.js';

export interface MessagePage {
  items: Message[];
  next_cursor: string | null;
}

// A cursor is the position after which the next page starts: the last row's sequence number, in
// digits, so the contract can say exactly which cursors exist (any position is one; past the end,
// the page is empty).
const encodeCursor = (seq: number) => String(seq);

function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[0-9]{1,15}$/.test(cursor)) throw new ValidationError('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor this server issued' }]);
  return Number(cursor);
}

/** One page of messages, optionally of one queue and one status, oldest first. */
export async function listMessages(
  db: Queryable,
  filter: { queue?: string; status?: string; limit: number; cursor?: string },
): Promise<MessagePage> {
  const afterSeq = decodeCursor(filter.cursor);
  if (filter.queue !== undefined && !(await queueExists(db, filter.queue))) {
    throw new NotFoundError(`No queue found with the name ${filter.queue}`);
  }
  // One row more than asked tells whether another page exists.
  const rows = await messageListPage(db, { ...filter, afterSeq, limit: filter.limit + 1 });
  const page = rows.slice(0, filter.limit);
  const more = rows.length > filter.limit;
  return { items: page.map(toMessage), next_cursor: more ? encodeCursor(page[page.length - 1].seq) : null };
}
