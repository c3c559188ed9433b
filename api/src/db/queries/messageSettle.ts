import type { Queryable } from '../pool.js';
import { BY_ID_OF, type Holder } from './messageRow.js';
import { ADVANCE_GROUPS, ADVANCE_RESULTS, type UnblockedRow } from './orderingGroup.js';
import { COUNTED } from './queueCounts.js';
import { BURY, RESULTS_BESIDE_ROUTED, ROUTED_RESULTS } from './messageDeath.js';

/** One message to settle, by one holder. `ref` says which request asked, for the answer. */
export interface SettleItem {
  ref: number;
  id: string;
  holder: Holder;
}

/** The items as the statement reads them ($1, see REQUEST), with `extra` fields per item. */
const request = <T extends SettleItem>(items: T[], extra: (item: T) => object = () => ({})) =>
  JSON.stringify(items.map((item) => ({ ref: item.ref, id: item.id, holder: item.holder.holder, queues: item.holder.queues, ...extra(item) })));

/** The request rows of a settle statement: ($1 jsonb) → ref, id, holder, queues. */
const REQUEST = (columns = '') => `SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, id uuid, holder text, queues text[]${columns})`;

/** The message `m` is held by the request `r`'s holder, on a queue the request may settle. */
const HELD_BY_REQUEST = `${BY_ID_OF('r')} AND m.id = r.id AND m.status = 'UNACKED' AND m.holder = r.holder
  AND (r.queues IS NULL OR m.queue_name = ANY (r.queues))`;

export interface AckedRow {
  ref: number;
  id: string;
  queue_name: string;
  published_at: Date;
  /** Traced statements only: the message's trace headers. */
  trace?: Record<string, string> | null;
}

/** What one statement that settles messages did to ordering keys: heads made PENDING, groups stalled. */
export interface Advanced {
  unblocked: UnblockedRow[];
  /** Queues with a group whose head must be promoted by a statement of its own. */
  stalled: string[];
  /** Dead letters published to a dead-letter topic: new PENDING messages of its queues (messageDeath.ts). */
  routed: RoutedRow[];
}

/** A routed dead letter's copy: the dead-letter topic it was published to, and whether it is the first copy of that publish. */
export interface RoutedRow extends UnblockedRow {
  topic_name: string;
  first_copy: boolean;
}

type Tagged<T> = (T & { kind: 'own' }) | (UnblockedRow & { kind: 'unblocked' }) | (RoutedRow & { kind: 'routed' }) | { kind: 'stalled'; queue_name: string };

/** Splits a statement's rows into its own and what it did to ordering keys. */
function untag<T>(rows: Tagged<T>[]): { own: T[]; advanced: Advanced } {
  const own: T[] = [];
  const advanced: Advanced = { unblocked: [], stalled: [], routed: [] };
  for (const row of rows) {
    if (row.kind === 'own') own.push(row);
    else if (row.kind === 'unblocked') advanced.unblocked.push(row);
    else if (row.kind === 'routed') advanced.routed.push(row);
    else advanced.stalled.push(row.queue_name);
  }
  return { own, advanced };
}

/**
 * The trace headers of a message's `headers` (traceparent, tracestate) as a small object, or NULL:
 * what a traced statement returns so that the broker's spans join the message's trace.
 */
const TRACE_OF = (headers: string) =>
  `CASE WHEN ${headers} ? 'traceparent' THEN jsonb_strip_nulls(jsonb_build_object('traceparent', ${headers}->>'traceparent', 'tracestate', ${headers}->>'tracestate')) END`;

const ACK_TEXT = (traced: boolean) => `WITH r AS (${REQUEST()}),
     acked AS (
       DELETE FROM message m USING r WHERE ${HELD_BY_REQUEST}
       RETURNING m.*, r.ref, now() AS acked_at, octet_length(m.payload) AS bytes),
     kept AS (
       INSERT INTO message_acked (id, seq, queue_name, topic_name, payload, headers, retry_count, published_at,
                                  available_at, holder, consumer_id, unacked_at, acked_at, ordering_key, priority, group_key)
       SELECT a.id, a.seq, a.queue_name, a.topic_name, a.payload, a.headers, a.retry_count, a.published_at,
              a.available_at, a.holder, a.consumer_id, a.unacked_at, a.acked_at, a.ordering_key, a.priority, a.group_key
         FROM acked a JOIN queue q ON q.name = a.queue_name
        WHERE coalesce(q.acked_retention_hours, $2) > 0),
     ${COUNTED({ from: 'acked', unacked: -1, acked: 1, bytes: -1 })},
     ${ADVANCE_GROUPS('acked')}
     SELECT 'own' AS kind, ref, id, queue_name, published_at, NULL AS available_at, false AS delayed${traced ? `, ${TRACE_OF('headers')} AS trace` : ''} FROM acked
     UNION ALL SELECT kind, NULL, id, queue_name, NULL, available_at, delayed${traced ? ', NULL' : ''} FROM (${ADVANCE_RESULTS}) x`;
/** With tracing on, the acked rows also say what trace they belong to (`trace`). */
const ACK = { name: 'message_ack', text: ACK_TEXT(false) };
const ACK_TRACED = { name: 'message_ack_traced', text: ACK_TEXT(true) };

/**
 * UNACKED → ACKED for every item whose holder still holds it, in one statement for any number of
 * requests. The row leaves the live table; it is kept in message_acked when its queue's retention
 * (or the broker's default) is above zero, and the queue's acked count goes up on this connection's
 * own counter row. The row lock fences a racing sweeper; an item not returned was not acked.
 */
export async function messageAck(
  db: Queryable,
  items: SettleItem[],
  defaultRetentionHours: number,
  traced = false,
): Promise<{ own: AckedRow[]; advanced: Advanced }> {
  const statement = traced ? ACK_TRACED : ACK;
  const { rows } = await db.query<Tagged<AckedRow>>({ ...statement, values: [request(items), defaultRetentionHours] });
  return untag(rows);
}

export interface NackItem extends SettleItem {
  requeue: boolean;
  delaySeconds: number;
  /** False: a hand back (a consumer that held it too long), not a failure: the retry count stays. Default true. */
  countRetry?: boolean;
  /** Why the consumer refused it (bounded by the route), kept with the message. */
  reason: string | null;
}

export interface ReturnedRow {
  ref: number;
  id: string;
  queue_name: string;
  status: 'PENDING' | 'DEAD';
  /** As PostgreSQL writes it (microseconds), for PENDING rows: when it is claimable again. */
  available_at: string;
  delayed: boolean;
  /** Traced statements only: the message's trace headers. */
  trace?: Record<string, string> | null;
}

/**
 * UNACKED → PENDING (retry_count + 1, available after the delay), or → DEAD when `requeue` is false
 * (NACKED) or the retries are used up (RETRIES_EXHAUSTED), for any number of requests in one
 * statement. The nack's reason stays with the message, so a later death can still tell it. A hand
 * back (`countRetry: false`) goes to PENDING with its retry count, and its last nack reason, unchanged.
 */
export async function messageNack(db: Queryable, items: NackItem[], traced = false): Promise<{ own: ReturnedRow[]; advanced: Advanced }> {
  const { rows } = await db.query<Tagged<ReturnedRow>>({
    ...(traced ? NACK_TRACED : NACK),
    values: [request(items, (item) => ({ requeue: item.requeue, delay: item.delaySeconds, reason: item.reason, counts: item.countRetry ?? true }))],
  });
  return untag(rows);
}

/**
 * What a death says in words (message_dead.dead_detail), from the dying row `g` of LEAVE_LEASE:
 * the consumer's reason, how many deliveries the retries allowed, or how often the lease ran out.
 */
const counted = (n: string, one: string, many: string) => `${n} || CASE WHEN ${n} = 1 THEN ' ${one}' ELSE ' ${many}' END`;
const DELIVERIES = counted('g.retry_count + 1', 'delivery', 'deliveries');
const DEAD_DETAIL = `CASE g.kind
    WHEN 'NACKED' THEN coalesce(g.reason, 'nacked without requeue')
    WHEN 'RETRIES_EXHAUSTED' THEN 'retries exhausted after ' || ${DELIVERIES} || coalesce(': ' || g.reason, '')
    ELSE 'lease expired ' || ${counted('coalesce(g.expired_count, 0) + 1', 'time', 'times')} || ', retries exhausted after ' || ${DELIVERIES}
         || coalesce('; last nack: ' || g.nack_reason, '')
  END`;

/**
 * What a message that goes back to its queue leaves behind: no holder and no lease. With no lease it
 * is no longer its ordering key's turn taken (NOT_HELD in orderingGroup.ts), so the key goes on
 * from it; shared by every statement that gives a lease up without settling (LEAVE_LEASE, messageRelease.ts).
 */
export const LEASE_CLEARED = 'holder = NULL, consumer_id = NULL, unacked_at = NULL, lease_expires_at = NULL';

/**
 * CTEs for the rows \`t\` (id, ref, dies, kind, reason) leaving their lease: \`back\` goes to its
 * queue again (PENDING, retry count \`retryCount\`, no holder, claimable at \`availableAt\`, plus \`backSet\`);
 * \`gone\` dies, out of the live table and into message_dead with its last holder and claim time,
 * its kind of death and why, and the next message of its ordering key (if any) becomes claimable
 * (ADVANCE_GROUPS). \`LEFT_LEASE\` selects the outcome of all of it, tagged by \`kind\`.
 */
export const LEAVE_LEASE = (availableAt: string, backSet: string, traced = false, retryCount = 'm.retry_count + 1') =>
  `back AS (
     UPDATE message m
        SET status = 'PENDING', retry_count = ${retryCount}, available_at = ${availableAt},
            ${LEASE_CLEARED}, ${backSet}
       FROM t WHERE ${BY_ID_OF('t')} AND m.id = t.id AND NOT t.dies
     RETURNING t.ref, m.id, m.queue_name, to_json(m.available_at) #>> '{}' AS available_at, m.available_at > now() AS delayed${traced ? `, ${TRACE_OF('m.headers')} AS trace` : ''}),
   gone AS (DELETE FROM message m USING t WHERE ${BY_ID_OF('t')} AND m.id = t.id AND t.dies RETURNING m.*, t.ref, t.kind, t.reason, octet_length(m.payload) AS bytes),
   ${BURY({ from: 'gone', reason: 'g.kind', nackReason: 'coalesce(g.reason, g.nack_reason)', detail: DEAD_DETAIL })},
   ${ADVANCE_GROUPS('gone')},
   ${COUNTED(
     { from: 'back', unacked: -1, pending: 1 },
     { from: 'gone', unacked: -1, bytes: -1 },
     { from: 'buried', dead: 1 },
     { from: 'routed', pending: 1, bytes: 1 },
   )}`;

/** `traced`: each row also says what trace its message belongs to (`trace`). */
const leftLease = (
  traced: boolean,
) => `SELECT 'own' AS kind, ref, id, queue_name, 'PENDING' AS status, available_at, delayed, NULL::text AS topic_name, NULL::boolean AS first_copy${traced ? ', trace' : ''} FROM back
  UNION ALL
  SELECT 'own', ref, id, queue_name, 'DEAD', NULL, false, NULL, NULL${traced ? `, ${TRACE_OF('headers')}` : ''} FROM gone
  UNION ALL
  SELECT kind, NULL, id, queue_name, NULL, available_at, delayed, topic_name, first_copy${traced ? ', NULL' : ''}
    FROM (${RESULTS_BESIDE_ROUTED(ADVANCE_RESULTS)} UNION ALL ${ROUTED_RESULTS}) x`;
export const LEFT_LEASE = leftLease(false);
/** LEFT_LEASE of a statement whose LEAVE_LEASE was traced. */
export const LEFT_LEASE_TRACED = leftLease(true);

const NACK_TEXT = (traced: boolean) => `WITH r AS (${REQUEST(', requeue boolean, delay int, reason text, counts boolean')}),
     t AS (
       SELECT m.id, r.ref, r.delay, r.counts, (NOT r.requeue OR (r.counts AND m.retry_count >= q.max_retries)) AS dies,
              CASE WHEN NOT r.requeue THEN 'NACKED' ELSE 'RETRIES_EXHAUSTED' END AS kind, r.reason
         FROM message m JOIN r ON ${HELD_BY_REQUEST} JOIN queue q ON q.name = m.queue_name
          FOR UPDATE OF m),
     ${LEAVE_LEASE(
       'now() + make_interval(secs => t.delay)',
       'nack_reason = CASE WHEN t.counts THEN t.reason ELSE coalesce(t.reason, m.nack_reason) END',
       traced,
       'm.retry_count + CASE WHEN t.counts THEN 1 ELSE 0 END',
     )}
     ${leftLease(traced)}`;
const NACK = { name: 'message_nack', text: NACK_TEXT(false) };
const NACK_TRACED = { name: 'message_nack_traced', text: NACK_TEXT(true) };

/** The rows of a statement ending in LEFT_LEASE, split into its own and what it did to ordering keys. */
export const untagLeftLease = (rows: Tagged<ReturnedRow>[]) => untag(rows);
export type { Tagged };

export interface ExtendItem extends SettleItem {
  seconds: number;
}

export interface ExtendedRow {
  ref: number;
  id: string;
  lease_expires_at: Date;
}

/**
 * Sets the lease of every item its holder still holds to now + its seconds, for any number of
 * requests in one statement (an extension round of a consumer holding 1,000 prefetched messages
 * costs one statement, not 1,000). An item not returned was not extended. The same id asked twice
 * by one holder in one batch is updated once; both requests see the row (the caller matches by holder and id).
 */
export async function messageExtend(db: Queryable, items: ExtendItem[]): Promise<ExtendedRow[]> {
  const { rows } = await db.query<ExtendedRow>({
    name: 'message_extend',
    text: `WITH r AS (${REQUEST(', seconds int')})
     UPDATE message m SET lease_expires_at = now() + make_interval(secs => r.seconds)
       FROM r WHERE ${HELD_BY_REQUEST}
     RETURNING r.ref, m.id, m.lease_expires_at`,
    values: [request(items, (item) => ({ seconds: item.seconds }))],
  });
  return rows;
}

export interface MessageState {
  id: string;
  queue_name: string;
  status: 'PENDING' | 'UNACKED' | 'ACKED' | 'DEAD';
  holder: string | null;
}

/**
 * Where settling failed: each message's queue, status and holder, wherever it is now. Only on the
 * failure path, so the success path stays one statement.
 */
export async function messageFindState(db: Queryable, ids: string[]): Promise<MessageState[]> {
  const { rows } = await db.query<MessageState>({
    name: 'message_find_state',
    text: `SELECT id, queue_name, CASE status WHEN 'BLOCKED' THEN 'PENDING' ELSE status END, holder FROM message WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT id, queue_name, 'DEAD', NULL FROM message_dead WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT id, queue_name, 'ACKED', holder FROM message_acked WHERE id = ANY($1::uuid[])`,
    values: [ids],
  });
  return rows;
}
