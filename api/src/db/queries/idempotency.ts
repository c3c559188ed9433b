import type { Queryable } from '../pool.js';
import type { RefusedCopyRow } from './messagePublish.js';

/** A publisher's key and what its publish stored. Keys are claimed by messagePublish itself. */
export interface IdempotencyRow {
  owner: string;
  key: string;
  topic_name: string;
  request_hash: string;
  message_ids: string[];
  queues: string[];
  /** The copies its queues refused (overflow reject_copy); null: none. */
  refused: RefusedCopyRow[] | null;
}

/** The publishes remembered under these (owner, key) pairs. */
export async function idempotencyFind(db: Queryable, keys: { owner: string; key: string }[]): Promise<IdempotencyRow[]> {
  // Refused copies count only if the claim that stored them is the key's current one (messagePublishBounds.ts).
  const { rows } = await db.query<IdempotencyRow>({
    name: 'idempotency_find',
    text: `SELECT k.owner, k.key, k.topic_name, k.request_hash, k.message_ids, k.queues,
              CASE WHEN k.refused_at = k.created_at THEN k.refused END AS refused
       FROM idempotency_key k JOIN unnest($1::text[], $2::text[]) AS w (owner, key) USING (owner, key)`,
    values: [keys.map((k) => k.owner), keys.map((k) => k.key)],
  });
  return rows;
}

export async function idempotencyDeleteExpired(db: Queryable, ttlHours: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_key WHERE created_at < now() - make_interval(hours => $1)', [ttlHours]);
  return rowCount ?? 0;
}
