import type { Queryable } from '../pool.js';
import { DEAD_COLUMNS, LIVE_STATUS, MESSAGE_COLUMNS, messageColumns, NO_DEAD_COLUMNS, type MessageRow } from './messageRow.js';

/** Where a page starts: after this published_at (available_at for dead letters: microseconds since 1970) and seq, both in digits. */
export interface Position {
  micros: string;
  seq: string;
}

export type Order = 'asc' | 'desc';

/** Before the first message, for each order (18 nines: the largest position a cursor can say). */
const START: Record<Order, Position> = {
  asc: { micros: '0', seq: '0' },
  desc: { micros: '999999999999999999', seq: '999999999999999999' },
};
const POSITION = `(timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::bigint)`;
/** A queue's listing goes by publish time; the dead-letter listing across queues by availability. */
type Along = 'published_at' | 'available_at';
const AFTER = (order: Order, along: Along) => `(m.${along}, m.seq) ${order === 'asc' ? '>' : '<'} ${POSITION}`;
const ORDER_BY = (order: Order, along: Along) => (order === 'asc' ? `ORDER BY m.${along}, m.seq` : `ORDER BY m.${along} DESC, m.seq DESC`);
const BY_PUBLISH: Record<Order, string> = { asc: ORDER_BY('asc', 'published_at'), desc: ORDER_BY('desc', 'published_at') };
/** Each part is read only when the status filter ($5, NULL = all) asks for it. */
const WANTS = (status: string) => `($5::text IS NULL OR $5::text = '${status}')`;
/** Acked messages past their queue's retention ($6: the broker's default) are not shown. */
const RETAINED = `m.acked_at > now() - make_interval(hours => (SELECT coalesce(q.acked_retention_hours, $6) FROM queue q WHERE q.name = $1))`;

/**
 * The four parts of a queue's listing, in publish order (published_at, seq), each read along an
 * index in that order and limited to $4: PENDING and BLOCKED (waiting behind an earlier message of
 * their ordering key, PENDING as the contract knows it) along message_published_idx, whose
 * predicate leaves UNACKED rows out so that a claim adds no entry to it (migration 0018); UNACKED
 * (one per lease) from the lease index, sorted; DEAD and ACKED along their publish-time indexes.
 * `columns` are selected.
 */
function queueParts(order: Order, live: string, dead: string, acked: string): string {
  const tail = `AND ${AFTER(order, 'published_at')} ${BY_PUBLISH[order]} LIMIT $4`;
  return `(SELECT ${live} FROM message m WHERE m.queue_name = $1 AND m.status <> 'UNACKED' AND ${WANTS('PENDING')} ${tail})
     UNION ALL
     (SELECT ${live} FROM message m WHERE m.queue_name = $1 AND m.status = 'UNACKED' AND ${WANTS('UNACKED')} ${tail})
     UNION ALL
     (SELECT ${dead} FROM message_dead m WHERE m.queue_name = $1 AND ${WANTS('DEAD')} ${tail})
     UNION ALL
     (SELECT ${acked} FROM message_acked m WHERE m.queue_name = $1 AND ${WANTS('ACKED')} AND ${RETAINED} ${tail})`;
}

export interface ListFilter {
  queue: string;
  status?: string;
  after?: Position;
  order: Order;
  limit: number;
  defaultRetentionHours: number;
}

const listParams = (filter: ListFilter, limit: number) => {
  const after = filter.after ?? START[filter.order];
  return [filter.queue, after.micros, after.seq, limit, filter.status ?? null, filter.defaultRetentionHours];
};

const PUBLISHED_COLUMNS = messageColumns('published_at');

/**
 * One page of a queue's messages in the order they were published (a delayed, nacked or
 * redelivered message keeps its place), oldest or newest first, whatever table holds them now.
 * A page of 50 reads at most 50 index entries per part, whatever the queue's size.
 */
export async function messageListPage(db: Queryable, filter: ListFilter): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT * FROM (${queueParts(
      filter.order,
      `${PUBLISHED_COLUMNS}, ${LIVE_STATUS}, m.lease_expires_at, ${NO_DEAD_COLUMNS}`,
      `${PUBLISHED_COLUMNS}, 'DEAD' AS status, NULL::timestamptz AS lease_expires_at, ${DEAD_COLUMNS}`,
      `${PUBLISHED_COLUMNS}, 'ACKED' AS status, NULL::timestamptz AS lease_expires_at, ${NO_DEAD_COLUMNS}`,
    )}) m ${BY_PUBLISH[filter.order]} LIMIT $4`,
    listParams(filter, filter.limit),
  );
  return rows;
}

export interface HeaderScan {
  /** Rows examined (at most the scan's bound). */
  examined: number;
  /** Position of the last row examined, when any was. */
  edge: Position | null;
  /** The matching ids, in the listing's order (at most the asked number). */
  ids: string[];
}

/**
 * The header filter, without an index on the live table (every publish would pay for it): the
 * listing's own index order is walked for at most `scan` rows, reading only ids, positions and
 * the one header, and the matches among them are returned with where the walk stopped, so that
 * the next page continues from there. Cost per page: `scan` index entries and heap rows.
 */
export async function messageHeaderScan(db: Queryable, filter: ListFilter & { header: { name: string; value: string }; scan: number }): Promise<HeaderScan> {
  const light = `m.id, m.published_at, m.seq, (m.headers ->> $7) = $8 AS hit`;
  const { rows } = await db.query<{ examined: number; edge_micros: string | null; edge_seq: string | null; ids: string[] }>(
    `WITH scanned AS MATERIALIZED (
       SELECT * FROM (${queueParts(filter.order, light, light, light)}) m ${BY_PUBLISH[filter.order]} LIMIT $4),
     edge AS (SELECT * FROM scanned m ${BY_PUBLISH[filter.order === 'asc' ? 'desc' : 'asc']} LIMIT 1)
     SELECT (SELECT count(*) FROM scanned)::int AS examined,
            (SELECT (extract(epoch FROM published_at) * 1000000)::bigint::text FROM edge) AS edge_micros,
            (SELECT seq::text FROM edge) AS edge_seq,
            ARRAY(SELECT id FROM scanned m WHERE hit ${BY_PUBLISH[filter.order]} LIMIT $9) AS ids`,
    [...listParams(filter, filter.scan), filter.header.name, filter.header.value, filter.limit],
  );
  const row = rows[0];
  return { examined: row.examined, edge: row.edge_micros === null ? null : { micros: row.edge_micros, seq: row.edge_seq as string }, ids: row.ids };
}

/** The listing rows of these ids of a queue, wherever they are (by primary key, or the acked id index). */
export async function messageRowsByIds(db: Queryable, queue: string, ids: string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS}, ${LIVE_STATUS}, m.lease_expires_at, ${NO_DEAD_COLUMNS} FROM message m WHERE m.id = ANY($2::uuid[]) AND m.queue_name = $1
     UNION ALL
     SELECT ${MESSAGE_COLUMNS}, 'DEAD', NULL, ${DEAD_COLUMNS} FROM message_dead m WHERE m.id = ANY($2::uuid[]) AND m.queue_name = $1
     UNION ALL
     SELECT ${MESSAGE_COLUMNS}, 'ACKED', NULL, ${NO_DEAD_COLUMNS} FROM message_acked m WHERE m.id = ANY($2::uuid[]) AND m.queue_name = $1`,
    [queue, ids],
  );
  return rows;
}

/**
 * How many messages of the queue match the status filter, counting no further than `cap` (so a
 * million pending cost `cap` index entries, not a million); each part as in the listing.
 */
export async function messageCount(db: Queryable, filter: { queue: string; status?: string; defaultRetentionHours: number }, cap: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (${queueParts('asc', '1', '1', '1')} LIMIT $4) m`,
    listParams({ ...filter, order: 'asc', limit: cap }, cap),
  );
  return rows[0].n;
}

export interface DeadFilter {
  queue?: string;
  reason?: string;
}

/** Each filter is either given or not, so the statement is chosen to keep its own index. */
function deadWhere(filter: DeadFilter, queueParam: string, reasonParam: string): string {
  const queue = filter.queue === undefined ? `${queueParam}::text IS NULL` : `m.queue_name = ${queueParam}`;
  const reason = filter.reason === undefined ? `${reasonParam}::text IS NULL` : `m.dead_reason = ${reasonParam}`;
  return `${queue} AND ${reason}`;
}

/** One page of dead messages, of one queue or of all, of one kind of death or all, in the order they became available. */
export async function deadListPage(db: Queryable, filter: DeadFilter & { after?: Position; limit: number }): Promise<MessageRow[]> {
  const after = filter.after ?? START.asc;
  const { rows } = await db.query<MessageRow>(
    `SELECT ${MESSAGE_COLUMNS}, 'DEAD' AS status, NULL::timestamptz AS lease_expires_at, ${DEAD_COLUMNS} FROM message_dead m
      WHERE ${deadWhere(filter, '$1', '$5')} AND ${AFTER('asc', 'available_at')} ${ORDER_BY('asc', 'available_at')} LIMIT $4`,
    [filter.queue ?? null, after.micros, after.seq, filter.limit, filter.reason ?? null],
  );
  return rows;
}

/** Dead messages matching the filter, counted no further than `cap`. */
export async function deadCount(db: Queryable, filter: DeadFilter, cap: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM message_dead m WHERE ${deadWhere(filter, '$1', '$2')} LIMIT $3) m`,
    [filter.queue ?? null, filter.reason ?? null, cap],
  );
  return rows[0].n;
}
