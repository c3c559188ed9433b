import { ConflictError, NotFoundError } from '../errors.js';
import type { Pool } from '../db/pool.js';
import { messageDeadDelete, messageReplay, messageReplayQueue, type ReplayedRow } from '../db/queries/messageDead.js';
import { messageFindState } from '../db/queries/messageSettle.js';
import { queueExists } from '../db/queries/queue.js';
import { transitionsOf, type Changes } from '../realtime/changes.js';

/** Replays are done in chunks so that a huge dead-letter queue never holds one long transaction. */
const REPLAY_CHUNK = 1_000;

const announce = (changes: Changes, rows: ReplayedRow[]) =>
  changes.committed(transitionsOf('REPLAYED', rows.map((row) => ({ queue: row.queue_name, id: row.id, availableAt: row.available_at, delayed: false }))));

export async function replayOne(deps: { pool: Pool; changes: Changes }, id: string) {
  const replayed = await messageReplay(deps.pool, id);
  if (replayed) {
    announce(deps.changes, [replayed]);
    return { message_id: id, status: 'PENDING' as const };
  }
  throw await notDead(deps.pool, id);
}

/** Deletes one dead message for good. Racing a replay of it, exactly one of the two succeeds. */
export async function deleteOne(pool: Pool, id: string): Promise<void> {
  if (!(await messageDeadDelete(pool, id))) throw await notDead(pool, id);
}

/** Why a dead-letter operation found no DEAD message with this id: none at all, or a live (or acked) one. */
async function notDead(pool: Pool, id: string): Promise<NotFoundError | ConflictError> {
  const [state] = await messageFindState(pool, [id]);
  if (!state) return new NotFoundError('message_not_found', `No message found with the id ${id}`);
  return new ConflictError('message_not_dead', `Message ${id} is ${state.status}, not DEAD`);
}

/** Replays up to `limit` (default: all) dead messages of a queue, oldest first. */
export async function replayQueue(deps: { pool: Pool; changes: Changes }, queue: string, limit = Number.MAX_SAFE_INTEGER) {
  if (!(await queueExists(deps.pool, queue))) throw new NotFoundError('queue_not_found', `No queue found with the name ${queue}`);
  let replayed = 0;
  while (replayed < limit) {
    const chunk = Math.min(REPLAY_CHUNK, limit - replayed);
    const rows = await messageReplayQueue(deps.pool, queue, chunk);
    announce(deps.changes, rows);
    replayed += rows.length;
    if (rows.length < chunk) break;
  }
  return { replayed };
}
