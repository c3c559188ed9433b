import type { Queryable } from '../pool.js';
import { OWNER_GONE, SESSION_OWNER } from './sessionOwner.js';

/** A consumer socket (/ws/consume) held by some instance: the rows the dispatcher rotates over. */
export interface WsConsumerRow {
  id: string;
  queue_name: string;
  instance_id: string;
}

/** Registers one consumer socket; fails with a foreign-key violation when the queue does not exist. */
export async function wsConsumerInsert(db: Queryable, instance: string, socket: { id: string; queue: string }): Promise<void> {
  await db.query(
    `INSERT INTO ws_consumer (id, queue_name, instance_id, owner_pid, owner_started)
     VALUES ($1, $2, $3, ${SESSION_OWNER}) ON CONFLICT (id) DO NOTHING`,
    [socket.id, socket.queue, instance],
  );
}

/** Registers again the sockets an instance still holds (after its session was replaced). */
export async function wsConsumerInsertMany(db: Queryable, instance: string, sockets: { id: string; queue: string }[]): Promise<void> {
  if (sockets.length === 0) return;
  // A queue deleted meanwhile is skipped rather than failing the others (its sockets are closing).
  await db.query(
    `INSERT INTO ws_consumer (id, queue_name, instance_id, owner_pid, owner_started)
     SELECT s.id, s.queue, $3, ${SESSION_OWNER} FROM unnest($1::text[], $2::text[]) AS s (id, queue)
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

/** Removes the sockets of instances whose coordination session no longer exists (they died). */
export async function wsConsumerDeleteOrphans(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM ws_consumer t WHERE ${OWNER_GONE}`);
  return rowCount ?? 0;
}

/** Every consumer socket of every instance, in the order they connected. */
export async function wsConsumerList(db: Queryable): Promise<WsConsumerRow[]> {
  const { rows } = await db.query<WsConsumerRow>('SELECT id, queue_name, instance_id FROM ws_consumer ORDER BY connected_at, id');
  return rows;
}
