import type { Queryable } from '../pool.js';
import { APPEND_TO_GROUPS, PLACED_STATUS } from './orderingGroup.js';
import { COUNTED } from './queueCounts.js';
import { GROUP_KEY } from './groupKey.js';
import { BOUNDED_COPY, BOUNDED_GUARD, CLAIM_REFUSED, FULL, FULL_JOINS, FULL_OF_ITEM } from './messagePublishBounds.js';

export interface PublishRowItem {
  topic: string;
  payload: string;
  headers: Record<string, string>;
  delaySeconds: number;
  /** Seconds after the publish when it expires (migration 0019); the queue's message_ttl_seconds, if earlier, wins. */
  expiresInSeconds?: number;
  /** 0-9 (migration 0021); honoured only by queues with a max_priority, which cap it there. */
  priority?: number;
  /** Messages of one key are delivered one at a time, in publish order, per queue. */
  orderingKey?: string;
  /** The group fair queues share out by (migration 0022); the ordering key when undefined. */
  groupKey?: string;
  /** With a key: stored only if this statement claims the key (owner, key). */
  idempotency?: { owner: string; key: string; hash: string };
}

export interface PublishedRow {
  /** False: no such topic, nothing stored. */
  topic_exists: boolean;
  /** True: a queue it would go to requires an ordering key and it has none; nothing stored. */
  refused: boolean;
  /** False: the idempotency key was already taken (look it up once this statement has committed). */
  stored: boolean;
  /** One id per bound queue whose filter matched, queues by name. */
  message_ids: string[];
  queues: string[];
  /** When the copies become claimable, as PostgreSQL writes it (microseconds). */
  available_at: string;
  delayed: boolean;
  /** Keyed statements only: the copies stored BLOCKED behind their key's head (claimable later). */
  blocked_ids?: string[];
  /** Plain statements only: a queue it goes to is bounded (publish it with `bounded`); nothing stored. */
  bounded?: boolean;
  /** Bounded statements only: the first reject_publish queue it did not fit in, and that queue's bounds; nothing stored. */
  full_queue?: string | null;
  full_max_messages?: number | null;
  full_max_bytes?: number | null;
  /** Bounded statements only: the reject_copy queues that refused their copy (the others got theirs); null: none. */
  refused_copies?: RefusedCopyRow[] | null;
}

/** A copy a full reject_copy queue refused, with that queue's bounds. */
export interface RefusedCopyRow {
  queue: string;
  max_messages: number | null;
  max_bytes: number | null;
}

/**
 * When a copy expires: the earlier of the item's own deadline and its queue's TTL, both counted
 * from the publish (least() skips NULLs; NULL when neither applies).
 */
const EXPIRES_AT = `least(now() + make_interval(secs => i.ttl), now() + make_interval(secs => q.message_ttl_seconds))`;

/**
 * A copy's priority: only a queue with max_priority keeps one (0 when the item has none, capped at
 * the queue's maximum); NULL elsewhere, which keeps it out of the priority claim index.
 */
const PRIORITY = `CASE WHEN q.max_priority IS NOT NULL THEN least(coalesce(i.prio, 0), q.max_priority) END`;

/** The items, numbered (`ord`) in the order given. */
const ITEMS = `item AS (
       SELECT * FROM ROWS FROM (json_to_recordset($1::json)
                  AS (topic text, payload text, headers jsonb, delay int, owner text, key text, hash text, okey text, ttl int, prio int, gkey text))
                WITH ORDINALITY AS i (topic, payload, headers, delay, owner, key, hash, okey, ttl, prio, gkey, ord))`;

/**
 * `copy`: one new id per (item, bound queue whose filter matches); `fanned` and `per_item`: each
 * item's ids and queues, whether its topic exists, and whether a queue it goes to refuses it
 * (`refused`: requires an ordering key it has none of); `may`: it will be stored unless its
 * idempotency key is taken. `allOrNothing`: one refused item stops every item ($3).
 */
const FANNED = (allOrNothing: string, bounded: boolean) => `${bounded ? 'candidate' : 'copy'} AS MATERIALIZED (
       SELECT miniqueue_uuidv7() AS id, i.ord, q.name AS queue, i.okey, q.require_ordering_key AND i.okey IS NULL AS refuses,
              ${EXPIRES_AT} AS expires_at, ${PRIORITY} AS priority, ${GROUP_KEY('q', 'i.gkey', 'i.okey')} AS group_key,
              ${bounded ? BOUNDED_COPY : BOUNDED_GUARD}
         FROM item i JOIN queue q ON q.topic_name = i.topic
                                 AND (q.filter IS NULL OR miniqueue_filter_matches(q.filter, i.headers))),
     ${
       bounded
         ? `${FULL}
     `
         : ''
     }fanned AS (
       SELECT ord, array_agg(id ORDER BY queue) AS ids, array_agg(queue ORDER BY queue) AS queues, bool_or(refuses) AS refused,
              bool_or(bounded) AS bounded
         FROM copy GROUP BY ord),
     per_item AS MATERIALIZED (
       SELECT i.ord, i.topic, i.payload, i.headers, i.owner, i.key, i.hash, t.topic_exists,
              coalesce(f.refused, false) AS refused, ${bounded ? FULL_OF_ITEM : 'coalesce(f.bounded, false) AS bounded'},
              t.topic_exists AND NOT coalesce(f.refused, false) AND ${bounded ? 'fu.ord IS NULL' : 'NOT coalesce(f.bounded, false)'} ${allOrNothing} AS may,
              now() + make_interval(secs => i.delay) AS available_at,
              coalesce(f.ids, '{}') AS ids, coalesce(f.queues, '{}') AS queues
         FROM item i LEFT JOIN fanned f ON f.ord = i.ord${bounded ? FULL_JOINS : ''}
        CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM topic t WHERE t.name = i.topic) AS topic_exists) t)`;

/**
 * `claimed`: the idempotency keys this statement takes; `outcome`: per item, `stored` or not. A
 * bounded statement's keys also remember the copies refused (CLAIM_REFUSED).
 */
const CLAIMED = (bounded: boolean) => {
  const refused = bounded ? CLAIM_REFUSED : { columns: '', values: '', set: '' };
  return `claimed AS (
       INSERT INTO idempotency_key (owner, key, topic_name, request_hash, message_ids, queues${refused.columns})
       SELECT p.owner, p.key, p.topic, p.hash, p.ids, p.queues${refused.values} FROM per_item p
        WHERE p.key IS NOT NULL AND p.may
        ORDER BY p.owner, p.key
       ON CONFLICT (owner, key) DO UPDATE
          SET topic_name = EXCLUDED.topic_name, request_hash = EXCLUDED.request_hash,
              message_ids = EXCLUDED.message_ids, queues = EXCLUDED.queues, created_at = now()${refused.set}
        WHERE idempotency_key.created_at < now() - make_interval(hours => $2)
       RETURNING owner, key),
     outcome AS MATERIALIZED (
       SELECT p.*, p.may AND (p.key IS NULL OR EXISTS (
                SELECT 1 FROM claimed k WHERE k.owner = p.owner AND k.key = p.key)) AS stored
         FROM per_item p)`;
};

const RESULT = (
  bounded: boolean,
  extra = '',
) => `SELECT o.ord::int AS ord, o.topic_exists, o.refused, o.stored, to_json(o.ids) AS message_ids, to_json(o.queues) AS queues,
            to_json(o.available_at) #>> '{}' AS available_at, o.available_at > now() AS delayed,
            ${bounded ? 'o.full_queue, o.full_max_messages, o.full_max_bytes, o.refused_copies' : 'o.bounded'}${extra}
       FROM outcome o ORDER BY o.ord`;

/** One refused item stops every item: lacking an ordering key, going to a bounded queue (plain), or not fitting (bounded). */
const ALL_OR_NOTHING = (bounded: boolean) =>
  `AND NOT ($3::boolean AND bool_or(coalesce(f.refused, false) OR ${bounded ? 'fu.ord IS NOT NULL' : 'coalesce(f.bounded, false)'}) OVER ())`;

/** Every copy is PENDING: no item has an ordering key. Without $3 it takes no window over the items. */
const KEYLESS_PUBLISH = (allOrNothing: boolean, bounded = false) => `WITH ${ITEMS},
     ${FANNED(allOrNothing ? ALL_OR_NOTHING(bounded) : '', bounded)},
     ${CLAIMED(bounded)},
     stored AS (
       INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at, expires_at, priority, group_key)
       SELECT c.id, c.queue, o.topic, o.payload, o.headers, 'PENDING', now(), o.available_at, c.expires_at, c.priority, c.group_key
         FROM outcome o JOIN copy c ON c.ord = o.ord
        WHERE o.stored
        ORDER BY o.ord, c.queue
       RETURNING queue_name, octet_length(payload) AS bytes),
     ${COUNTED({ from: 'stored', pending: 1, bytes: 1 })}
     ${RESULT(bounded)}`;

/** Keyed copies join the end of their (queue, key) group: PENDING at its head, else BLOCKED. */
const KEYED_PUBLISH = (bounded = false) => `WITH ${ITEMS},
     ${FANNED(ALL_OR_NOTHING(bounded), bounded)},
     ${CLAIMED(bounded)},
     -- Keyed copies being stored, numbered within their (queue, key) group in publish order.
     keyed AS MATERIALIZED (
       SELECT c.id, c.queue AS queue_name, c.okey AS ordering_key, row_number() OVER w AS k,
              count(*) OVER (PARTITION BY c.queue, c.okey) AS n
         FROM outcome o JOIN copy c ON c.ord = o.ord
        WHERE o.stored AND c.okey IS NOT NULL
       WINDOW w AS (PARTITION BY c.queue, c.okey ORDER BY c.ord)),
     ${APPEND_TO_GROUPS('keyed')},
     stored AS (
       INSERT INTO message (id, queue_name, topic_name, payload, headers, status, published_at, available_at,
                            ordering_key, ordering_pos, expires_at, priority, group_key)
       SELECT c.id, c.queue, o.topic, o.payload, o.headers, ${PLACED_STATUS('p')}, now(), o.available_at, c.okey, p.pos, c.expires_at, c.priority,
              c.group_key
         FROM outcome o JOIN copy c ON c.ord = o.ord LEFT JOIN placed p ON p.id = c.id
        WHERE o.stored
        ORDER BY o.ord, c.queue
       RETURNING queue_name, octet_length(payload) AS bytes),
     ${COUNTED({ from: 'stored', pending: 1, bytes: 1 })}
     ${RESULT(
       bounded,
       `,
            (SELECT coalesce(json_agg(c.id), '[]') FROM copy c JOIN placed p ON p.id = c.id
              WHERE c.ord = o.ord AND NOT p.head) AS blocked_ids`,
     )}`;

/** `takesAllOrNothing`: the statement reads $3 (PostgreSQL refuses a parameter it does not read). */
const PUBLISH_KEYLESS = { name: 'message_publish', text: KEYLESS_PUBLISH(false), takesAllOrNothing: false };
const PUBLISH_KEYLESS_ALL_OR_NOTHING = { name: 'message_publish_all_or_nothing', text: KEYLESS_PUBLISH(true), takesAllOrNothing: true };
const PUBLISH_KEYED = { name: 'message_publish_keyed', text: KEYED_PUBLISH(), takesAllOrNothing: true };
const PUBLISH_BOUNDED = { name: 'message_publish_bounded', text: KEYLESS_PUBLISH(false, true), takesAllOrNothing: false };
const PUBLISH_BOUNDED_ALL_OR_NOTHING = { name: 'message_publish_bounded_all_or_nothing', text: KEYLESS_PUBLISH(true, true), takesAllOrNothing: true };
const PUBLISH_KEYED_BOUNDED = { name: 'message_publish_keyed_bounded', text: KEYED_PUBLISH(true), takesAllOrNothing: true };

/**
 * Publishes any number of items, to any topics, in ONE statement: each item becomes one PENDING
 * row per queue bound to its topic, with ids made here (UUIDv7). Items with an idempotency key
 * claim it in the same statement, together with the ids they get, and are stored only if the
 * claim succeeded; a key held by a transaction still in flight makes the statement wait for it.
 * One statement for a whole group of requests is what lets concurrent single publishes share a
 * commit (broker/groupCommit.ts); an unknown topic or a taken key only leaves its own item out.
 *
 * Queues with a filter take only the items whose headers it matches (miniqueue_filter_matches,
 * migration 0009). An item with an ordering key gets the next position of its (queue, key) group
 * in each queue; it is PENDING when its group had nothing live, else BLOCKED behind the head.
 * Groups are locked in (queue, key) order, as keys are, so no two statements wait in a cycle.
 * `allOrNothing`: one refused item (ordering key required) stores nothing of the whole call.
 *
 * Keys are claimed in (owner, key) order so that two such statements never wait on each other in
 * a cycle. Duplicate keys within one call are the caller's to remove (ON CONFLICT cannot touch a
 * row twice in one statement).
 */
export async function messagePublish(
  db: Queryable,
  items: PublishRowItem[],
  idempotencyTtlHours: number,
  allOrNothing = false,
  bounded = false,
): Promise<PublishedRow[]> {
  // Keyless publishes (nearly all) take a statement without the ordering-group CTEs, and single
  // publishes (never all or nothing) one without the window too: planning and running those, even
  // empty, cost a keyless publish a sixth of its database time.
  const keyed = items.some((item) => item.orderingKey !== undefined);
  const statement = bounded
    ? keyed
      ? PUBLISH_KEYED_BOUNDED
      : allOrNothing
        ? PUBLISH_BOUNDED_ALL_OR_NOTHING
        : PUBLISH_BOUNDED
    : keyed
      ? PUBLISH_KEYED
      : allOrNothing
        ? PUBLISH_KEYLESS_ALL_OR_NOTHING
        : PUBLISH_KEYLESS;
  const { rows } = await db.query<PublishedRow & { ord: number }>({
    name: statement.name,
    text: statement.text,
    // JSON in and out: one native JSON.stringify / JSON.parse instead of escaping and parsing
    // PostgreSQL array literals element by element (a tenth of the broker's time for a batch).
    values: [
      JSON.stringify(
        items.map((item) => ({
          topic: item.topic,
          payload: item.payload,
          headers: item.headers,
          delay: item.delaySeconds,
          owner: item.idempotency?.owner ?? null,
          key: item.idempotency?.key ?? null,
          hash: item.idempotency?.hash ?? null,
          okey: item.orderingKey ?? null,
          ttl: item.expiresInSeconds ?? null,
          prio: item.priority ?? null,
          gkey: item.groupKey ?? null,
        })),
      ),
      idempotencyTtlHours,
      ...(statement.takesAllOrNothing ? [allOrNothing] : []),
    ],
  });
  return rows;
}
