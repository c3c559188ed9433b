import type { Queryable } from '../db/pool.js';

export interface WsConsumerRow {
  id: string;
  queue_name: string;
  instance_id: string;
}

// Any constant works; it only has to be the same for every instance of the broker.
const DISPATCHER_LOCK_ID = 7_345_112_003;

/** Takes the dispatcher's lock for this session, if nobody holds it; it goes with the session. */
export async function dispatcherLockTry(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [DISPATCHER_LOCK_ID]);
  return rows[0].ok;
}

// Rows name the session that inserts them: run these on the instance's coordination session.
// backend_start is compared in SQL only: a JS Date would drop its microseconds.
const OWNER = `pg_backend_pid(), (SELECT backend_start FROM pg_stat_activity WHERE pid = pg_backend_pid())`;

/** Registers one consumer socket; fails with a foreign-key violation when the queue does not exist. */
export async function wsConsumerInsert(db: Queryable, instance: string, socket: { id: string; queue: string }): Promise<void> {
  await db.query(
    `INSERT INTO ws_consumer (id, queue_name, instance_id, owner_pid, owner_started)
     VALUES ($1, $2, $3, ${OWNER}) ON CONFLICT (id) DO NOTHING`,
    [socket.id, socket.queue, instance],
  );
}

/** Registers again the sockets an instance still holds (after its session was replaced). */
export async function wsConsumerInsertMany(db: Queryable, instance: string, sockets: { id: string; queue: string }[]): Promise<void> {
  if (sockets.length === 0) return;
  // A queue deleted meanwhile is skipped rather than failing the others (its sockets are closing).
  await db.query(
    `INSERT INTO ws_consumer (id, queue_name, instance_id, owner_pid, owner_started)
     SELECT s.id, s.queue, $3, ${OWNER} FROM unnest($1::text[], $2::text[]) AS s (id, queue)
      WHERE EXISTS (SELECT 1 FROM queue q WHERE q.name = s.queue)
     ON CONFLICT (id) DO NOTHING`,
    [sockets.map((s) => s.id), sockets.map((s) => s.queue), instance],
  );
}

export async function wsConsumerDelete(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM ws_consumer WHERE id = $1', [id]);
}

export async function wsConsumerDeleteInstance(db: Queryable, instance: string): Promise<void> {
  await db.query('DELETE FROM ws_consumer WHERE instance_id = $1', [instance]);
}

/**
 * Removes the sockets, and the monitor presence, of instances whose coordination session no longer
 * exists (they died).
 */
export async function wsConsumerDeleteOrphans(db: Queryable): Promise<number> {
  const orphaned = `NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = t.owner_pid AND a.backend_start = t.owner_started)`;
  await db.query(`DELETE FROM ws_monitor t WHERE ${orphaned}`);
  const { rowCount } = await db.query(`DELETE FROM ws_consumer t WHERE ${orphaned}`);
  return rowCount ?? 0;
}

/** This instance holds monitor sockets: the others send it their coalesced monitor events (realtime/monitorRelay.ts). */
export async function wsMonitorPresent(db: Queryable, instance: string): Promise<void> {
  await db.query(
    `INSERT INTO ws_monitor (instance_id, owner_pid, owner_started) VALUES ($1, ${OWNER})
     ON CONFLICT (instance_id) DO UPDATE SET owner_pid = EXCLUDED.owner_pid, owner_started = EXCLUDED.owner_started`,
    [instance],
  );
}

/** Does an instance other than this one hold monitor sockets? */
export async function wsMonitorElsewhere(db: Queryable, instance: string): Promise<boolean> {
  const { rows } = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM ws_monitor WHERE instance_id <> $1) AS found',
    [instance],
  );
  return rows[0].found;
}

export async function wsMonitorAbsent(db: Queryable, instance: string): Promise<void> {
  await db.query('DELETE FROM ws_monitor WHERE instance_id = $1', [instance]);
}

/** Every consumer socket of every instance, in the order they connected. */
export async function wsConsumerList(db: Queryable): Promise<WsConsumerRow[]> {
  const { rows } = await db.query<WsConsumerRow>(
    'SELECT id, queue_name, instance_id FROM ws_consumer ORDER BY connected_at, id',
  );
  return rows;
}

/** Tells the instances holding the chosen sockets (channel miniqueue_ws_push), in one statement. */
export async function wsPushNotify(db: Queryable, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  await db.query("SELECT pg_notify('miniqueue_ws_push', p) FROM unnest($1::text[]) AS p", [payloads]);
}

/**
 * The messages of a delayed group (same queue and available_at), once the database's clock says
 * they are due; `waitMs` > 0 means not yet (the broker's clock ran ahead).
 */
export async function messageDueAt(
  db: Queryable,
  queue: string,
  availableAt: string,
): Promise<{ waitMs: number; ids: string[] }> {
  const { rows } = await db.query<{ wait_ms: number; ids: string[] | null }>(
    `SELECT greatest(0, ceil(extract(epoch FROM ($2::timestamptz - clock_timestamp())) * 1000))::int AS wait_ms,
            CASE WHEN $2::timestamptz <= clock_timestamp() THEN
              (SELECT array_agg(id::text ORDER BY seq) FROM message
                WHERE queue_name = $1 AND status = 'PENDING' AND available_at = $2::timestamptz)
            END AS ids`,
    [queue, availableAt],
  );
  return { waitMs: rows[0].wait_ms, ids: rows[0].ids ?? [] };
}

/** Delayed groups of queues with consumer sockets, for a dispatcher that just took over. */
export async function messageDelayedGroups(db: Queryable, limit: number): Promise<{ queue: string; available_at: string }[]> {
  const { rows } = await db.query<{ queue: string; available_at: string }>(
    `SELECT m.queue_name AS queue, to_json(m.available_at) #>> '{}' AS available_at
       FROM message m
      WHERE m.status = 'PENDING' AND m.available_at > now()
        AND EXISTS (SELECT 1 FROM ws_consumer w WHERE w.queue_name = m.queue_name)
      GROUP BY m.queue_name, m.available_at
      ORDER BY m.available_at
      LIMIT $1`,
    [limit],
  );
  return rows;
}
