import { ConflictError, NotFoundError } from '../errors.js';
import type { Queryable } from '../db/pool.js';
import { messageFindState, messageReplay, messageReplayQueue } from '../db/queries/message.js';
import { queueExists } from '../db/queries/queue.js';

/** Replays are done in chunks so that a huge dead-letter queue never holds one long transaction. */
const REPLAY_CHUNK = 1_000;

export async function replayOne(db: Queryable, id: string) {
  if (await messageReplay(db, id)) return { message_id: id, status: 'PENDING' as const };
  const [state] = await messageFindState(db, [id]);
  if (!state) throw new NotFoundError(`No message found with the id ${id}`);
  throw new ConflictError(`Message ${id} is ${state.status}, not DEAD`);
}

/** Replays up to `limit` (default: all) dead messages of a queue, oldest first. */
export async function replayQueue(db: Queryable, queue: string, limit = Number.MAX_SAFE_INTEGER) {
  if (!(await queueExists(db, queue))) throw new NotFoundError(`No queue found with the name ${queue}`);
  let replayed = 0;
  while (replayed < limit) {
    const chunk = Math.min(REPLAY_CHUNK, limit - replayed);
    const count = await messageReplayQueue(db, queue, chunk);
    replayed += count;
    if (count < chunk) break;
  }
  return { replayed };
}
