import type { Queryable } from '../pool.js';

/** A message row as the API shows it (seq is the paging cursor, never shown). */
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
}

const COLUMNS = `m.id, m.seq, m.queue_name, m.topic_name, m.payload, m.headers, m.status, m.retry_count,
  m.published_at, m.available_at, m.consumer_id, m.unacked_at, m.lease_expires_at`;

export interface FanoutItem {
  payload: string;
  headers: Record<string, string>;
  delaySeconds: number;
}
export interface FanoutResult {
  topicExists: boolean;
  /** Queues bound to the topic when the statement ran. */
  queueCount: number;
  /** Empty when `ids` was too short for items × queues: nothing was written, call again. */
  inserted: { id: string; queue: string }[];
}

/**
 * Publishes items to every queue bound to the topic in ONE statement: one row per (item, queue).
 * The caller supplies the ids; id number `item * queueCount + queueIndex` (queues by name) goes
 * to that pair. When the caller guessed too few queues, nothing is written and `queueCount`
 * says how many ids to send next time.
 */
export async function messageInsertFanout(
  db: Queryable,
  topic: string,
  items: FanoutItem[],
  ids: string[],
): Promise<FanoutResult> {
  const { rows } = await db.query<{ topic_exists: number; queue_count: number; inserted: { id: string; queue: string }[] }>(
    `WITH t AS (SELECT name FROM topic WHERE name = $1),
          q AS (SELECT name, (row_number() OVER (ORDER BY name))::int - 1 AS qi, count(*) OVER ()::int AS qn
                  FROM queue WHERE topic_name = $1),
          item AS (SELECT payload, headers, delay, (ord - 1)::int AS ii
                     FROM unnest($2::text[], $3::jsonb[], $4::int[]) WITH ORDINALITY AS i (payload, headers, delay, ord)),
          ins AS (
            INSERT INTO message (id, queue_name, topic_name, payload, headers, status, available_at, last_event)
            SELECT ($5::uuid[])[item.ii * q.qn + q.qi + 1], q.name, $1, item.payload, item.headers, 'PENDING',
                   now() + make_interval(secs => item.delay), 'PUBLISHED'
              FROM item CROSS JOIN q
             WHERE EXISTS (SELECT 1 FROM t)
               AND (SELECT count(*) FROM q) * cardinality($2::text[]) <= cardinality($5::uuid[])
             ORDER BY item.ii, q.qi
            RETURNING id, queue_name)
     SELECT (SELECT count(*) FROM t)::int AS topic_exists,
            (SELECT count(*) FROM q)::int AS queue_count,
            coalesce((SELECT json_agg(json_build_object('id', id, 'queue', queue_name)) FROM ins), '[]'::json) AS inserted`,
    [
      topic,
      items.map((item) => item.payload),
      items.map((item) => JSON.stringify(item.headers)),
      items.map((item) => item.delaySeconds),
      ids,
    ],
  );
  const row = rows[0];
  return { topicExists: row.topic_exists === 1, queueCount: row.queue_count, inserted: row.inserted };
}

/**
 * Claims up to `limit` of the oldest available PENDING messages of a queue for one consumer.
 * SKIP LOCKED lets competing consumers take different rows instead of waiting on one another;
 * the lease runs for the queue's ack timeout.
 */
export async function messageClaim(
  db: Queryable,
  claim: { queue: string; consumerId: string; limit: number },
): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `WITH c AS (
       SELECT id FROM message
        WHERE queue_name = $1 AND status = 'PENDING' AND available_at <= now()
        ORDER BY available_at, seq
        LIMIT $3
        FOR UPDATE SKIP LOCKED)
     UPDATE message m
        SET status = 'UNACKED', consumer_id = $2, unacked_at = now(), last_event = 'CONSUMED',
            lease_expires_at = now() + make_interval(secs => q.ack_timeout_seconds)
       FROM c, queue q
      WHERE m.id = c.id AND q.name = m.queue_name
     RETURNING ${COLUMNS}`,
    [claim.queue, claim.consumerId, claim.limit],
  );
  return rows.sort((a, b) => a.available_at.getTime() - b.available_at.getTime() || a.seq - b.seq);
}

/** After an empty claim: does the queue exist, and when does its next PENDING message become available? */
export async function messageNextAvailable(
  db: Queryable,
  queue: string,
): Promise<{ queueExists: boolean; nextAvailableAt: Date | null }> {
  const { rows } = await db.query<{ found: boolean; next: Date | null }>(
    `SELECT EXISTS (SELECT 1 FROM queue WHERE name = $1) AS found,
            (SELECT min(available_at) FROM message WHERE queue_name = $1 AND status = 'PENDING') AS next`,
    [queue],
  );
  return { queueExists: rows[0].found, nextAvailableAt: rows[0].next };
}

/**
 * Who may settle a message: its holder, and only on queues the caller may consume from
 * (`queues` null = any queue).
 */
export interface Holder {
  consumerId: string;
  queues: string[] | null;
}

export interface AckedRow {
  id: string;
  queue_name: string;
  published_at: Date;
}

/** UNACKED → ACKED for the ids the holder still holds. The row lock fences a racing sweeper. */
export async function messageAck(db: Queryable, ids: string[], holder: Holder): Promise<AckedRow[]> {
  const { rows } = await db.query<AckedRow>(
    `UPDATE message
        SET status = 'ACKED', acked_at = now(), lease_expires_at = NULL, last_event = 'ACKED'
      WHERE id = ANY($1::uuid[]) AND status = 'UNACKED' AND consumer_id = $2
        AND ($3::text[] IS NULL OR queue_name = ANY($3::text[]))
     RETURNING id, queue_name, published_at`,
    [ids, holder.consumerId, holder.queues],
  );
  return rows;
}

/**
 * UNACKED → PENDING (retry_count + 1) or → DEAD, for a row joined as `t` with a boolean `t.dies`.
 * A dead message keeps its last consumer and claim time, for the dead-letter listing.
 */
function leaveLease(events: { dead: string; requeued: string; availableAt: string }): string {
  return `status       = CASE WHEN t.dies THEN 'DEAD' ELSE 'PENDING' END,
            retry_count  = CASE WHEN t.dies THEN m.retry_count ELSE m.retry_count + 1 END,
            last_event   = CASE WHEN t.dies THEN '${events.dead}' ELSE '${events.requeued}' END,
            available_at = CASE WHEN t.dies THEN m.available_at ELSE ${events.availableAt} END,
            consumer_id  = CASE WHEN t.dies THEN m.consumer_id END,
            unacked_at   = CASE WHEN t.dies THEN m.unacked_at END,
            dead_at      = CASE WHEN t.dies THEN now() END,
            lease_expires_at = NULL`;
}

export interface NackedRow {
  id: string;
  queue_name: string;
  status: 'PENDING' | 'DEAD';
}

/**
 * UNACKED → PENDING (retry_count + 1, available after the delay), or → DEAD when `requeue` is
 * false or the retries are used up.
 */
export async function messageNack(
  db: Queryable,
  id: string,
  holder: Holder,
  options: { requeue: boolean; delaySeconds: number },
): Promise<NackedRow | null> {
  const { rows } = await db.query<NackedRow>(
    `WITH target AS (
       SELECT m.id, (NOT $4::boolean OR m.retry_count >= q.max_retries) AS dies
         FROM message m JOIN queue q ON q.name = m.queue_name
        WHERE m.id = $1 AND m.status = 'UNACKED' AND m.consumer_id = $2
          AND ($3::text[] IS NULL OR m.queue_name = ANY($3::text[]))
          FOR UPDATE OF m)
     UPDATE message m
        SET ${leaveLease({ dead: 'NACKED_DEAD', requeued: 'NACKED', availableAt: 'now() + make_interval(secs => $5)' })}
       FROM target t
      WHERE m.id = t.id
     RETURNING m.id, m.queue_name, m.status`,
    [id, holder.consumerId, holder.queues, options.requeue, options.delaySeconds],
  );
  return rows[0] ?? null;
}

/** Sets the lease of a held message to now + seconds. */
export async function messageExtend(
  db: Queryable,
  id: string,
  holder: Holder,
  seconds: number,
): Promise<{ id: string; lease_expires_at: Date } | null> {
  const { rows } = await db.query<{ id: string; lease_expires_at: Date }>(
    `UPDATE message SET lease_expires_at = now() + make_interval(secs => $4)
      WHERE id = $1 AND status = 'UNACKED' AND consumer_id = $2
        AND ($3::text[] IS NULL OR queue_name = ANY($3::text[]))
     RETURNING id, lease_expires_at`,
    [id, holder.consumerId, holder.queues, seconds],
  );
  return rows[0] ?? null;
}

/** Where a settle failed: the message's current queue, status and holder, for a precise error. */
export async function messageFindState(
  db: Queryable,
  ids: string[],
): Promise<{ id: string; queue_name: string; status: string; consumer_id: string | null }[]> {
  const { rows } = await db.query(
    'SELECT id, queue_name, status, consumer_id FROM message WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return rows;
}

export interface ExpiredRow {
  id: string;
  queue_name: string;
  status: 'PENDING' | 'DEAD';
}

/**
 * Returns up to `limit` messages whose lease ran out to PENDING (retry_count + 1), or to DEAD
 * when the retries are used up. SKIP LOCKED: two sweepers never take the same row, and a row
 * being acked right now is left to the ack.
 */
export async function messageExpireLeases(db: Queryable, limit: number): Promise<ExpiredRow[]> {
  const { rows } = await db.query<ExpiredRow>(
    `WITH expired AS (
       SELECT m.id, m.retry_count >= q.max_retries AS dies
         FROM message m JOIN queue q ON q.name = m.queue_name
        WHERE m.status = 'UNACKED' AND m.lease_expires_at < now()
        ORDER BY m.lease_expires_at
        LIMIT $1
          FOR UPDATE OF m SKIP LOCKED)
     UPDATE message m
        SET ${leaveLease({ dead: 'EXPIRED_DEAD', requeued: 'REDELIVERED', availableAt: 'now()' })}
       FROM expired t
      WHERE m.id = t.id
     RETURNING m.id, m.queue_name, m.status`,
    [limit],
  );
  return rows;
}

const REPLAY_SET = `status = 'PENDING', retry_count = 0, consumer_id = NULL, unacked_at = NULL,
  dead_at = NULL, available_at = now(), last_event = 'REPLAYED'`;

/** DEAD → PENDING for one message; null when it is not DEAD (or does not exist). */
export async function messageReplay(db: Queryable, id: string): Promise<{ id: string } | null> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE message SET ${REPLAY_SET} WHERE id = $1 AND status = 'DEAD' RETURNING id`,
    [id],
  );
  return rows[0] ?? null;
}

/** DEAD → PENDING for up to `limit` of a queue's dead messages, oldest first. */
export async function messageReplayQueue(db: Queryable, queue: string, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `WITH d AS (SELECT id FROM message WHERE queue_name = $1 AND status = 'DEAD'
                 ORDER BY seq LIMIT $2 FOR UPDATE SKIP LOCKED)
     UPDATE message m SET ${REPLAY_SET} FROM d WHERE m.id = d.id`,
    [queue, limit],
  );
  return rowCount ?? 0;
}

/** One page of messages in insertion order, after the cursor `afterSeq`. */
export async function messageListPage(
  db: Queryable,
  filter: { queue?: string; status?: string; afterSeq?: number; limit: number },
): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM message m
      WHERE ($1::text IS NULL OR m.queue_name = $1)
        AND ($2::text IS NULL OR m.status = $2)
        AND ($3::bigint IS NULL OR m.seq > $3)
      ORDER BY m.seq
      LIMIT $4`,
    [filter.queue ?? null, filter.status ?? null, filter.afterSeq ?? null, filter.limit],
  );
  return rows;
}
