import type { Queryable } from '../pool.js';
import { CLAIM_TAKE, type ClaimItem } from './messageClaim.js';
import { MESSAGE_COLUMNS, type MessageRow } from './messageRow.js';
import { COUNTED } from './queueCounts.js';

/** A rate-limited queue's bucket holds a tenth of a second's worth of tokens, at least one. */
export const DELIVERY_BURST = (rate: string) => `greatest(1, ${rate} / 10.0)`;

export interface GatedClaimItem extends ClaimItem {
  /** How long the turn of a single-active-consumer queue stays this holder's if it asks no more. */
  holdSeconds: number;
}

/** Why a request of the gated claim got nothing, when the gate (not an empty queue) is the reason. */
export interface GateVerdict {
  ref: number;
  /** The queue has a gate (false: it has none now, or does not exist; the plain claim takes it). */
  gated: boolean;
  /** A single-active-consumer queue whose turn is another holder's. */
  standby: boolean;
  /** A rate-limited queue with no token: when enough are back to be worth claiming again. */
  wait_ms: number | null;
  /** A fair queue whose keys with waiting messages are all at max_in_flight_per_key. */
  full: boolean;
}

/** A verdict row's message columns: as many NULLs as `claimed` returns after `ref` (MESSAGE_COLUMNS, status, lease). */
const NO_MESSAGE = Array.from({ length: MESSAGE_COLUMNS.split(',').length + 2 }, () => 'NULL').join(', ');

export type GatedClaimRow = (MessageRow & { ref: number; kind: 'message' }) | (GateVerdict & { kind: 'verdict' });

/**
 * The claim of queues with a delivery gate (single_active_consumer, max_deliveries_per_second),
 * for any number of requests in ONE statement, as messageClaim is for the rest. Its picking,
 * leases and counts are messageClaim's; before them it decides who may take and how many:
 *
 * - Single active consumer: the queue's row in queue_active_consumer names whose turn it is. An
 *   upsert takes it (the first asker of the batch, or the holder itself, which renews it for
 *   `holdSeconds`). The upsert locks the row, so statements of every instance take turns on it and
 *   see the turn as the one before left it; a holder whose turn is still running, or who holds a
 *   live lease (a heartbeat that keeps extending it keeps the turn), is never replaced. That lease
 *   check reads the lease index and runs only when the turn lapsed and another holder asks.
 * - Rate limit: the bucket row (queue_delivery_tokens) is locked, refilled to now at the queue's
 *   rate (up to a tenth of a second's worth, at least one token), at most its whole tokens are
 *   claimed, and what was really claimed is taken out, in the same statement and commit, so every
 *   instance draws from one bucket. Tokens are counted per message delivered, never per request.
 *
 * A request that got nothing says why (a verdict row): the turn is another's (`standby`), or no
 * token (`wait_ms`, until min(limit, burst) tokens are back, so eager consumers do not claim one
 * token per statement). Like messageClaim, it commits without waiting for the WAL flush: a lost
 * turn lapses, lost tokens are a tenth of a second's worth at most.
 *
 * - Fair sharing (fairness by_key, migration 0022): `fair_keys` visits the queue's group keys with
 *   waiting messages in turn, from the key after the one the last claim ended on
 *   (queue_fair_turn.last_key), with what each may still have in flight; the take hands out each
 *   key's first message before any key's second, and the turn moves on to the last key served.
 *   The counts in flight are exact because fair claims of a queue take turns on its turn row
 *   (`turn_locked`, locked after the other gates' rows, as every gated statement locks them), and
 *   miniqueue_fair_keys, being VOLATILE, counts with snapshots taken after that lock was granted:
 *   it sees every fair claim committed before, which this statement's own snapshot does not. The
 *   take itself may read older rows: one claimed since is UNACKED by the time it is locked, and
 *   SKIP LOCKED's recheck leaves it.
 *
 * Cost (bench `claim_rate_limited` beside `consume_ack`, and the two designs compared in
 * docs/api-guide.md): one more row locked and updated per statement, not per message.
 */
export async function messageClaimGated(db: Queryable, items: GatedClaimItem[]): Promise<GatedClaimRow[]> {
  const { rows } = await db.query<Record<string, unknown>>({
    name: 'message_claim_gated',
    text: `WITH r AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (ref int, queue text, holder text, consumer text, lim int, max_bytes bigint, hold float8)),
     g AS (
       SELECT q.name, q.single_active_consumer AS sac, q.max_deliveries_per_second AS rate,
              ${DELIVERY_BURST('q.max_deliveries_per_second')} AS burst, q.gated, q.max_priority IS NOT NULL AS prioritized,
              q.fairness = 'by_key' AS fair, q.max_in_flight_per_key AS per_key
         FROM queue q WHERE q.name IN (SELECT queue FROM r)),
     -- Single active consumer: the holder whose turn it is asks for it again; else the first asker.
     asker AS (
       SELECT DISTINCT ON (r.queue) r.queue, r.holder, r.consumer, r.hold
         FROM r JOIN g ON g.name = r.queue AND g.sac
         LEFT JOIN queue_active_consumer a ON a.queue_name = r.queue
        ORDER BY r.queue, (r.holder IS NOT DISTINCT FROM a.holder) DESC, r.ref),
     turn AS (
       INSERT INTO queue_active_consumer AS a (queue_name, holder, consumer_id, since, active_until)
       SELECT queue, holder, consumer, now(), now() + make_interval(secs => hold) FROM asker ORDER BY queue
       ON CONFLICT (queue_name) DO UPDATE
          SET since = CASE WHEN a.holder = excluded.holder THEN a.since ELSE excluded.since END,
              active_until = CASE WHEN a.holder = excluded.holder THEN greatest(a.active_until, excluded.active_until) ELSE excluded.active_until END,
              holder = excluded.holder, consumer_id = excluded.consumer_id
        WHERE a.holder = excluded.holder
           OR (a.active_until <= now() AND NOT EXISTS (
                 SELECT 1 FROM message l
                  WHERE l.status = 'UNACKED' AND l.lease_expires_at > now() AND l.queue_name = a.queue_name AND l.holder = a.holder))
       RETURNING a.queue_name, a.holder),
     eligible AS (
       SELECT r.* FROM r JOIN g ON g.name = r.queue
        WHERE (NOT g.sac OR EXISTS (SELECT 1 FROM turn t WHERE t.queue_name = r.queue AND t.holder = r.holder))),
     req AS (SELECT e.*, sum(e.lim) OVER (PARTITION BY e.queue ORDER BY e.ref) AS upto FROM eligible e),
     -- Rate limit: the bucket, locked, refilled to this moment (clock time: the lock may have waited).
     bucket AS (
       SELECT b.queue_name, g.rate, g.burst, clock_timestamp() AS at,
              least(g.burst, b.tokens + g.rate * greatest(0, extract(epoch FROM clock_timestamp() - b.refilled_at))) AS tokens
         FROM queue_delivery_tokens b JOIN g ON g.name = b.queue_name
        WHERE g.rate IS NOT NULL AND b.queue_name IN (SELECT queue FROM eligible)
          FOR UPDATE OF b),
     wanted AS (
       SELECT req.queue, CASE WHEN g.rate IS NULL THEN max(req.upto) ELSE least(max(req.upto), floor(coalesce(min(b.tokens), 0))) END::bigint AS n,
              g.prioritized, g.fair, g.per_key
         FROM req JOIN g ON g.name = req.queue LEFT JOIN bucket b ON b.queue_name = req.queue
        GROUP BY req.queue, g.rate, g.prioritized, g.fair, g.per_key),
     -- Fair queues: their turn rows, locked (in name order) after every other gate's row: what
     -- comes later depends on \`wanted\`, which depends on those.
     turn_locked AS MATERIALIZED (
       SELECT t.queue_name, t.last_key FROM queue_fair_turn t
        WHERE t.queue_name IN (SELECT queue FROM wanted WHERE fair AND n > 0)
        ORDER BY t.queue_name FOR UPDATE OF t),
     -- The keys to take from this time, in turn (visits bounded by what is wanted), counted once the lock is held.
     fair_keys AS MATERIALIZED (
       SELECT w.queue, k.group_key, k.room, k.visit
         FROM wanted w JOIN turn_locked t ON t.queue_name = w.queue
        CROSS JOIN LATERAL miniqueue_fair_keys(w.queue, t.last_key, w.per_key, ${FAIR_VISITS('w.n')}) k
        WHERE w.fair AND w.n > 0),
     ${CLAIM_TAKE({ fair: true })},
     ${COUNTED({ from: 'claimed', pending: -1, unacked: 1 })},
     spent AS (
       UPDATE queue_delivery_tokens t
          SET tokens = b.tokens - (SELECT count(*) FROM claimed c WHERE c.queue_name = b.queue_name), refilled_at = b.at
         FROM bucket b WHERE t.queue_name = b.queue_name
       RETURNING t.queue_name, t.tokens, b.rate, b.burst),
     -- The next fair claim starts after the last key served (or, serving none, the last visited).
     turned AS (
       UPDATE queue_fair_turn t
          SET last_key = coalesce(
                (SELECT p.group_key FROM picked p JOIN fair_keys k ON k.queue = p.queue AND k.group_key = p.group_key
                  WHERE p.queue = t.queue_name AND p.id IN (SELECT id FROM claimed) ORDER BY k.visit DESC LIMIT 1),
                (SELECT k.group_key FROM fair_keys k WHERE k.queue = t.queue_name ORDER BY k.visit DESC LIMIT 1))
        WHERE t.queue_name IN (SELECT queue FROM fair_keys)),
     no_flush_wait AS (SELECT set_config('synchronous_commit', 'off', true) AS setting)
     SELECT 'message' AS kind, c.*, NULL::boolean AS gated, NULL::boolean AS standby, NULL::int AS wait_ms,
            NULL::boolean AS full
       FROM claimed c WHERE (SELECT setting FROM no_flush_wait) IS NOT NULL
     UNION ALL
     SELECT 'verdict', r.ref, ${NO_MESSAGE},
            coalesce(g.gated, false),
            coalesce(g.sac, false) AND r.ref NOT IN (SELECT ref FROM eligible),
            (SELECT ceil(1000 * (least(r.lim, s.burst) - s.tokens) / s.rate)::int FROM spent s WHERE s.queue_name = r.queue AND s.tokens < 1),
            EXISTS (SELECT 1 FROM fair_keys k WHERE k.queue = r.queue AND k.room <= 0)
       FROM r LEFT JOIN g ON g.name = r.queue
      WHERE NOT EXISTS (SELECT 1 FROM claimed c WHERE c.ref = r.ref)`,
    values: [
      JSON.stringify(
        items.map((item, ref) => ({
          ref,
          queue: item.queue,
          holder: item.holder,
          consumer: item.consumerId,
          lim: item.limit,
          max_bytes: item.maxBytes,
          hold: item.holdSeconds,
        })),
      ),
    ],
  });
  return rows.map((row) => {
    const { kind, gated, standby, wait_ms, full, ...message } = row;
    if (kind === 'verdict')
      return {
        kind,
        ref: message.ref as number,
        gated: gated as boolean,
        standby: standby as boolean,
        wait_ms: wait_ms as number | null,
        full: full as boolean,
      };
    return { kind: 'message', ...(message as unknown as MessageRow & { ref: number }) };
  });
}

/**
 * How many keys one fair claim visits at most: enough for every message wanted to come from a key
 * of its own with some keys at their limit on the way, and never so many that a queue of thousands
 * of tenants makes each claim walk them all (the next claim goes on from where this one stopped).
 */
const FAIR_VISITS = (wanted: string) => `least(1000, 4 * ${wanted} + 16)::int`;

/** A stream that ends gives up its turns at once, so the next consumer need not wait for them to lapse. */
export async function queueActiveConsumerResign(db: Queryable, queues: string[], holder: string): Promise<void> {
  await db.query({
    name: 'queue_active_consumer_resign',
    text: `UPDATE queue_active_consumer SET active_until = least(active_until, now())
            WHERE queue_name = ANY ($1::text[]) AND holder = $2`,
    values: [queues, holder],
  });
}
