/**
 * A message as the statements read it, from whichever table holds it (live, acked or dead), with
 * BLOCKED shown as PENDING (LIVE_STATUS); broker/message.ts turns it into the contract's Message.
 */
export interface MessageRow {
  id: string;
  seq: number;
  queue_name: string;
  topic_name: string;
  payload: string;
  headers: Record<string, string>;
  status: 'PENDING' | 'UNACKED' | 'ACKED' | 'DEAD';
  retry_count: number;
  published_at: Date;
  available_at: Date;
  consumer_id: string | null;
  unacked_at: Date | null;
  lease_expires_at: Date | null;
  ordering_key: string | null;
  /** When it expires (migration 0019); null: never. */
  expires_at: Date | null;
  /** Its priority in a queue with a max_priority (migration 0021); null elsewhere. */
  priority: number | null;
  /** Its group in a queue with fairness by_key (migration 0022); null elsewhere. */
  group_key: string | null;
  /** The paging position in microseconds since 1970, in digits: published_at in a queue's listing, else available_at. */
  position: string;
  /** Dead messages in listings: when and how they died, and why in words. */
  dead_at?: Date | null;
  dead_reason?: 'NACKED' | 'RETRIES_EXHAUSTED' | 'EXPIRED' | 'OVERFLOW' | 'TTL_EXPIRED' | null;
  dead_detail?: string | null;
}

/** The columns every table has, as a MessageRow wants them (`m` is the table's alias), positioned by `position`. */
export const messageColumns = (position: 'available_at' | 'published_at') => `m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.ordering_key, m.expires_at, m.priority, m.group_key,
  (extract(epoch FROM m.${position}) * 1000000)::bigint::text AS position`;

export const MESSAGE_COLUMNS = messageColumns('available_at');

/**
 * A live row of `alias` has not expired (migration 0019): what every claim (and what counts as
 * claimable) adds to `status = 'PENDING'`, so an expired message is never delivered, even before
 * the expiry sweep (jobs/expirySweeper.ts) has moved it. Rows without expiry pass on the NULL test.
 */
export const NOT_EXPIRED = (alias = 'm') => `(${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`;

/**
 * A live row's status as the contract knows it: a message waiting behind an earlier one of its
 * ordering key (BLOCKED) is PENDING to every reader.
 */
export const LIVE_STATUS = `CASE m.status WHEN 'BLOCKED' THEN 'PENDING' ELSE m.status END AS status`;

/** The dead-letter columns of a listing: message_dead's own, NULL for the other tables. */
export const DEAD_COLUMNS = 'm.dead_at, m.dead_reason, m.dead_detail';
export const NO_DEAD_COLUMNS = 'NULL::timestamptz AS dead_at, NULL::text AS dead_reason, NULL::text AS dead_detail';

/**
 * Who may settle a message: its holder, and only on queues the caller may consume from
 * (`queues` null = any queue).
 */
export interface Holder {
  /** The credential's id (plus the MiniQueue-Instance): what a lease is fenced on. */
  holder: string;
  /** The same holder as people read it. */
  consumerId: string;
  queues: string[] | null;
}

/**
 * `m.id` is one of the ids the CTE `cte` found. Said as `= ANY (ARRAY(…))` rather than only as a
 * join, because the planner cannot know that a CTE built from JSON or a LATERAL holds a handful of
 * rows: as a join it would hash the whole live table (a claim went from 2 ms to 190 ms with
 * 300,000 pending), while an array of ids is looked up in the primary key, one probe each.
 */
export const BY_ID_OF = (cte: string) => `m.id = ANY (ARRAY(SELECT id FROM ${cte}))`;
