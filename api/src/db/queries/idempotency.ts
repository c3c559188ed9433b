import type { Queryable } from '../pool.js';

export interface IdempotencyRow {
  key: string;
  topic_name: string;
  request_hash: string;
  message_ids: string[];
  queues: string[];
}

/**
 * Claims keys for this publisher, in the caller's transaction. A key held by a transaction still
 * in flight makes this wait for it; a key older than the TTL is taken over. Returns the keys
 * now claimed; the others were already used.
 */
export async function idempotencyClaim(
  db: Queryable,
  owner: string,
  topic: string,
  keys: { key: string; hash: string }[],
  ttlHours: number,
): Promise<Set<string>> {
  const { rows } = await db.query<{ key: string }>(
    `INSERT INTO idempotency_key (owner, key, topic_name, request_hash)
     SELECT $1, k, $2, h FROM unnest($3::text[], $4::text[]) AS u (k, h)
     ON CONFLICT (owner, key) DO UPDATE
        SET topic_name = EXCLUDED.topic_name, request_hash = EXCLUDED.request_hash,
            message_ids = '{}', queues = '{}', created_at = now()
      WHERE idempotency_key.created_at < now() - make_interval(hours => $5)
     RETURNING key`,
    [owner, topic, keys.map((k) => k.key), keys.map((k) => k.hash), ttlHours],
  );
  return new Set(rows.map((row) => row.key));
}

export async function idempotencyFind(db: Queryable, owner: string, keys: string[]): Promise<IdempotencyRow[]> {
  const { rows } = await db.query<IdempotencyRow>(
    `SELECT key, topic_name, request_hash, message_ids, queues
       FROM idempotency_key WHERE owner = $1 AND key = ANY($2::text[])`,
    [owner, keys],
  );
  return rows;
}

/** Remembers what each claimed key published. */
export async function idempotencyRecord(
  db: Queryable,
  owner: string,
  results: { key: string; ids: string[]; queues: string[] }[],
): Promise<void> {
  await db.query(
    `UPDATE idempotency_key k SET message_ids = r.ids, queues = r.queues
       FROM jsonb_to_recordset($2::jsonb) AS r (key text, ids uuid[], queues text[])
      WHERE k.owner = $1 AND k.key = r.key`,
    [owner, JSON.stringify(results)],
  );
}

export async function idempotencyDeleteExpired(db: Queryable, ttlHours: number): Promise<number> {
  const { rowCount } = await db.query(
    'DELETE FROM idempotency_key WHERE created_at < now() - make_interval(hours => $1)',
    [ttlHours],
  );
  return rowCount ?? 0;
}
