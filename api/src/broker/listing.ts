import { NotFoundError, ValidationError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import {
  deadCount,
  deadListPage,
  messageCount,
  messageHeaderScan,
  messageListPage,
  messageRowsByIds,
  type DeadFilter,
  type Order,
  type Position,
} from '../db/queries/messageList.js';
import type { MessageRow } from '../db/queries/messageRow.js';
import { queueExists } from '../db/queries/queue.js';
import { toMessage, type Message } from './message.js';

export interface MessagePage {
  items: Message[];
  next_cursor: string | null;
  total: number | null;
  total_exact: boolean;
}

/** Totals are counted this far and no further (then shown as "10,000 or more"). */
export const TOTAL_CAP = 10_000;
/**
 * Rows a header-filtered page examines at most. Measured on a million pending messages
 * (bench/listing.ts): about 5 ms a page, against a GIN index on the live table that would cost
 * every publish.
 */
export const HEADER_SCAN_ROWS = 5_000;

/**
 * A cursor is the position after which the next page starts, in digits (so the contract can say
 * exactly which cursors exist: any position is one, and past the end the page is empty): the last
 * row's available_at in microseconds since 1970, then its sequence number in 18 digits.
 */
const SEQ_DIGITS = 18;
const encodePosition = (position: Position) => `${position.micros}${position.seq.padStart(SEQ_DIGITS, '0')}`;
const positionOf = (row: MessageRow): Position => ({ micros: row.position, seq: String(row.seq) });

function decodeCursor(cursor: string | undefined): Position | undefined {
  if (cursor === undefined) return undefined;
  if (!/^[0-9]{19,36}$/.test(cursor)) throw new ValidationError('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor this server issued' }]);
  return { micros: cursor.slice(0, -SEQ_DIGITS), seq: cursor.slice(-SEQ_DIGITS) };
}

const totalOf = (count: number) => ({ total: Math.min(count, TOTAL_CAP), total_exact: count <= TOTAL_CAP });

function page(rows: MessageRow[], limit: number, count: number): MessagePage {
  // One row more than asked tells whether another page exists.
  const items = rows.slice(0, limit);
  const more = rows.length > limit;
  return { items: items.map(toMessage), next_cursor: more ? encodePosition(positionOf(items[items.length - 1])) : null, ...totalOf(count) };
}

export interface ListQuery {
  queue: string;
  status?: string;
  order: Order;
  /** `name=value`, split at the first `=`. */
  header?: string;
  limit: number;
  cursor?: string;
  defaultRetentionHours: number;
}

/** One page of a queue's messages, optionally of one status and one header value, oldest or newest first. */
export async function listMessages(db: Queryable, query: ListQuery): Promise<MessagePage> {
  const after = decodeCursor(query.cursor);
  if (!(await queueExists(db, query.queue))) throw new NotFoundError('queue_not_found', `No queue found with the name ${query.queue}`);
  const filter = { ...query, after };
  if (query.header !== undefined) return listByHeader(db, filter, query.header);
  const [rows, count] = await Promise.all([messageListPage(db, { ...filter, limit: query.limit + 1 }), messageCount(db, filter, TOTAL_CAP + 1)]);
  return page(rows, query.limit, count);
}

/**
 * A page of the messages with one header value: the matches among the next HEADER_SCAN_ROWS rows in
 * order. The cursor continues after the last match when the page is full, else after the last row
 * examined (the page may be short, even empty, with more to search), else there is no more.
 */
async function listByHeader(db: Queryable, filter: ListQuery & { after?: Position }, header: string): Promise<MessagePage> {
  const split = header.indexOf('=');
  const wanted = { name: header.slice(0, split), value: header.slice(split + 1) };
  const scan = await messageHeaderScan(db, { ...filter, header: wanted, scan: HEADER_SCAN_ROWS, limit: filter.limit + 1 });
  const found = new Map((await messageRowsByIds(db, filter.queue, scan.ids.slice(0, filter.limit))).map((row) => [row.id, row]));
  // In the scan's order; a message that moved on since the scan (acked, say) is left out.
  const rows = scan.ids.slice(0, filter.limit).flatMap((id) => found.get(id) ?? []);
  let next: Position | null = null;
  const last = rows.at(-1);
  // (Every match of a full page gone meanwhile: the same page again.)
  if (scan.ids.length > filter.limit) next = last ? positionOf(last) : (filter.after ?? null);
  else if (scan.examined === HEADER_SCAN_ROWS) next = scan.edge;
  return { items: rows.map(toMessage), next_cursor: next ? encodePosition(next) : null, total: null, total_exact: false };
}

/** One page of dead messages, of one queue or of all, of one kind of death or all. */
export async function listDeadMessages(db: Queryable, filter: DeadFilter & { limit: number; cursor?: string }): Promise<MessagePage> {
  const after = decodeCursor(filter.cursor);
  if (filter.queue !== undefined && !(await queueExists(db, filter.queue))) {
    throw new NotFoundError('queue_not_found', `No queue found with the name ${filter.queue}`);
  }
  const [rows, count] = await Promise.all([deadListPage(db, { ...filter, after, limit: filter.limit + 1 }), deadCount(db, filter, TOTAL_CAP + 1)]);
  return page(rows, filter.limit, count);
}
