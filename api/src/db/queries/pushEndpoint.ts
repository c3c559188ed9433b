import type { Queryable } from '../pool.js';

export interface PushEndpointRow {
  queue_name: string;
  url: string;
  max_in_flight: number;
  timeout_seconds: number;
  secret_rotated_at: Date;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
  consecutive_failures: number;
  last_error: string | null;
  last_error_at: Date | null;
  last_success_at: Date | null;
}

/** What the push worker needs: the row with its sealed secrets (never sent to a client). */
export interface PushEndpointSealed extends PushEndpointRow {
  secret_sealed: string;
  /** Only while it still signs. */
  previous_secret_sealed: string | null;
  ack_timeout_seconds: number;
}

const COLUMNS =
  'p.queue_name, p.url, p.max_in_flight, p.timeout_seconds, p.secret_rotated_at, p.previous_secret_until, p.created_at, p.updated_at, ' +
  'p.consecutive_failures, p.last_error, p.last_error_at, p.last_success_at';

/**
 * Sets the queue's endpoint. A new one takes `sealed` as its secret; an existing one keeps its
 * secret and changes only the URL and limits. `created` says which. Null when there is no queue.
 */
export async function pushEndpointUpsert(
  db: Queryable,
  endpoint: { queue: string; url: string; maxInFlight: number; timeoutSeconds: number; sealed: string },
): Promise<(PushEndpointRow & { created: boolean }) | null> {
  const { rows } = await db.query<PushEndpointRow & { created: boolean }>(
    `INSERT INTO queue_push AS p (queue_name, url, max_in_flight, timeout_seconds, secret_sealed)
     SELECT name, $2, $3, $4, $5 FROM queue WHERE name = $1
     ON CONFLICT (queue_name) DO UPDATE
        SET url = EXCLUDED.url, max_in_flight = EXCLUDED.max_in_flight, timeout_seconds = EXCLUDED.timeout_seconds, updated_at = now()
     RETURNING ${COLUMNS}, (xmax = 0) AS created`,
    [endpoint.queue, endpoint.url, endpoint.maxInFlight, endpoint.timeoutSeconds, endpoint.sealed],
  );
  return rows[0] ?? null;
}

export async function pushEndpointGet(db: Queryable, queue: string): Promise<PushEndpointRow | null> {
  const { rows } = await db.query<PushEndpointRow>(`SELECT ${COLUMNS} FROM queue_push p WHERE p.queue_name = $1`, [queue]);
  return rows[0] ?? null;
}

export async function pushEndpointDelete(db: Queryable, queue: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM queue_push WHERE queue_name = $1', [queue]);
  return rowCount === 1;
}

/** A new secret; the current one becomes the previous, signing beside it for `overlapSeconds`. */
export async function pushEndpointRotate(db: Queryable, queue: string, sealed: string, overlapSeconds: number): Promise<PushEndpointRow | null> {
  const { rows } = await db.query<PushEndpointRow>(
    `UPDATE queue_push p SET previous_secret_sealed = p.secret_sealed, secret_sealed = $2,
            previous_secret_until = now() + make_interval(secs => $3), secret_rotated_at = now(), updated_at = now()
      WHERE p.queue_name = $1 RETURNING ${COLUMNS}`,
    [queue, sealed, overlapSeconds],
  );
  return rows[0] ?? null;
}

/** Every endpoint, for the push worker, with the queue's lease length. */
export async function pushEndpointsAll(db: Queryable): Promise<PushEndpointSealed[]> {
  const { rows } = await db.query<PushEndpointSealed>(
    `SELECT ${COLUMNS}, p.secret_sealed,
            CASE WHEN p.previous_secret_until > now() THEN p.previous_secret_sealed END AS previous_secret_sealed,
            q.ack_timeout_seconds
       FROM queue_push p JOIN queue q ON q.name = p.queue_name ORDER BY p.queue_name`,
  );
  return rows;
}

/**
 * Takes the queue's push-claim lock until the transaction ends: pushers on every instance claim
 * for one queue one after another, so each counts what the others hold before it claims.
 */
export async function pushClaimLock(db: Queryable, queue: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('miniqueue-push:' || $1, 0))`, [queue]);
}

/**
 * Messages pushers hold on the queue, on every instance (a statement of its own, after the lock,
 * so its snapshot includes every claim committed before the lock was granted). UNACKED rows are
 * few (one per lease), read along the lease index.
 */
export async function pushInFlight(db: Queryable, queue: string, holderPrefix: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM message WHERE status = 'UNACKED' AND queue_name = $1 AND starts_with(holder, $2)`,
    [queue, holderPrefix],
  );
  return rows[0].n;
}

/** What one instance saw of an endpoint's deliveries since it last wrote (push/pushHealth.ts). */
export interface PushHealthDelta {
  queue: string;
  /** Failures since the last success seen (or since the last write, without one). */
  failures: number;
  /** When the last success seen was; null without one (the stored count then grows by `failures`). */
  lastSuccessAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/**
 * Adds what this instance saw to each endpoint's stored health, in one statement for all of them.
 * A success resets the count to the failures after it; otherwise the failures add to those stored
 * (other instances' included). The newest error and success win, whichever instance saw them.
 */
export async function pushHealthRecord(db: Queryable, deltas: PushHealthDelta[]): Promise<void> {
  await db.query({
    text: `UPDATE queue_push p
        SET consecutive_failures = CASE WHEN e.last_success_at IS NULL THEN p.consecutive_failures + e.failures ELSE e.failures END,
            last_success_at = greatest(p.last_success_at, e.last_success_at),
            last_error = CASE WHEN e.last_error_at >= coalesce(p.last_error_at, '-infinity') THEN e.last_error ELSE p.last_error END,
            last_error_at = greatest(p.last_error_at, e.last_error_at)
       FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::text[], $5::timestamptz[])
            AS e(queue_name, failures, last_success_at, last_error, last_error_at)
      WHERE p.queue_name = e.queue_name`,
    values: [
      deltas.map((d) => d.queue),
      deltas.map((d) => d.failures),
      deltas.map((d) => d.lastSuccessAt),
      deltas.map((d) => d.lastError),
      deltas.map((d) => d.lastErrorAt),
    ],
  });
}
