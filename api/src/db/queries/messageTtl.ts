import type { Queryable } from '../pool.js';
import { BY_ID_OF } from './messageRow.js';
import { ADVANCE_GROUPS, ADVANCE_RESULTS } from './orderingGroup.js';
import { COUNTED } from './queueCounts.js';
import { BURY, RESULTS_BESIDE_ROUTED, ROUTED_RESULTS } from './messageDeath.js';
import { untagLeftLease, type Advanced, type Tagged } from './messageSettle.js';

export interface ExpiredRow {
  id: string;
  queue_name: string;
  /** True: it went to the dead letters (reason TTL_EXPIRED; routed too, if the queue says); false: dropped. */
  dead: boolean;
}

/**
 * Takes up to `limit` PENDING messages whose time to live ran out (migration 0019) out of the
 * live table, oldest deadline first: to message_dead with reason TTL_EXPIRED (and to the queue's
 * dead-letter topic, messageDeath.ts), or deleted when the queue's on_expiry is `drop`. The next
 * message of an expired ordering-key head becomes claimable (ADVANCE_GROUPS); a BLOCKED message is
 * left until it is its key's head (claims skip it meanwhile: NOT_EXPIRED). UNACKED messages stay
 * with their consumer; if the lease runs out they are PENDING and expire then.
 *
 * It reads the partial index message_expires_idx (expires_at WHERE expires_at IS NOT NULL), which
 * holds only messages that expire: a broker whose queues have no expiry reads one empty index page.
 * SKIP LOCKED: sweepers on several instances, and claims, never wait on each other.
 */
const SWEEP = `WITH t AS (
       SELECT m.id FROM message m
        WHERE m.expires_at <= now() AND m.status = 'PENDING'
        ORDER BY m.expires_at
        LIMIT $1
          FOR UPDATE OF m SKIP LOCKED),
     gone AS (
       DELETE FROM message m USING t WHERE ${BY_ID_OF('t')} AND m.id = t.id
       RETURNING m.*, octet_length(m.payload) AS bytes),
     ${BURY({
       from: 'gone',
       where: "q.on_expiry = 'dead_letter'",
       reason: "'TTL_EXPIRED'",
       nackReason: 'g.nack_reason',
       detail: "'time to live ran out before delivery'",
     })},
     ${ADVANCE_GROUPS('gone')},
     ${COUNTED({ from: 'gone', pending: -1, bytes: -1 }, { from: 'buried', dead: 1 }, { from: 'routed', pending: 1, bytes: 1 })}
     SELECT 'own' AS kind, g.id, g.queue_name, NULL AS available_at, false AS delayed, NULL::text AS topic_name, NULL::boolean AS first_copy,
            q.on_expiry = 'dead_letter' AS dead
       FROM gone g JOIN queue q ON q.name = g.queue_name
     UNION ALL SELECT kind, id, queue_name, available_at, delayed, topic_name, first_copy, NULL
       FROM (${RESULTS_BESIDE_ROUTED(ADVANCE_RESULTS)} UNION ALL ${ROUTED_RESULTS}) x`;

export async function messageExpireTtl(db: Queryable, limit: number): Promise<{ own: ExpiredRow[]; advanced: Advanced }> {
  const { rows } = await db.query<Tagged<ExpiredRow>>({ name: 'message_expire_ttl', text: SWEEP, values: [limit] });
  return untagLeftLease(rows as never) as unknown as { own: ExpiredRow[]; advanced: Advanced };
}
