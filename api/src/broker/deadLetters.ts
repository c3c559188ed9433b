import { ConflictError, NotFoundError, type BrokerError } from '../errors.js';
import type { Pool } from '../db/pool.js';
import {
  messageDeadDelete,
  messageDeadDeleteIds,
  messageDeadDeleteMatching,
  messageReplay,
  messageReplayIds,
  messageReplayMatching,
  type DeadSelector,
  type ReplayedRow,
} from '../db/queries/messageDead.js';
import { messageFindState } from '../db/queries/messageSettle.js';
import { queueExists } from '../db/queries/queue.js';
import { transitionsOf, type Changes } from './changes.js';
import { replayWithinBounds } from './bounds.js';

/** Replays and deletes are done in chunks so that a huge dead-letter queue never holds one long transaction. */
const CHUNK = 1_000;

type Deps = { pool: Pool; changes: Changes };

const announce = (changes: Changes, rows: ReplayedRow[]) =>
  changes.committed(
    transitionsOf(
      'REPLAYED',
      rows.map((row) => ({ queue: row.queue_name, id: row.id, availableAt: row.available_at, delayed: false })),
    ),
  );

/** What a replay statement did, with the queues it added to (for the bounds' check). */
const withQueues = (rows: ReplayedRow[]) => ({ rows, queues: rows.map((row) => row.queue_name) });

export async function replayOne(deps: Deps, id: string) {
  const replayed = await replayWithinBounds(deps.pool, undefined, async (tx) => {
    const row = await messageReplay(tx, id);
    return { rows: row, queues: row ? [row.queue_name] : [] };
  });
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

async function checkQueue(pool: Pool, queue: string | undefined): Promise<void> {
  if (queue !== undefined && !(await queueExists(pool, queue))) throw new NotFoundError('queue_not_found', `No queue found with the name ${queue}`);
}

/** Runs `chunk` (which handles up to n rows and says how many it did) until `limit` are done or none is left. */
async function inChunks(limit: number, chunk: (n: number) => Promise<number>): Promise<number> {
  let done = 0;
  while (done < limit) {
    const n = Math.min(CHUNK, limit - done);
    const did = await chunk(n);
    done += did;
    if (did < n) break;
  }
  return done;
}

/** Replays up to `limit` (default: all) dead messages matching the filter, oldest first. */
export async function replayMatching(deps: Deps, filter: DeadSelector, limit = Number.MAX_SAFE_INTEGER) {
  await checkQueue(deps.pool, filter.queue);
  const replayed = await inChunks(limit, async (n) => {
    const rows = await replayWithinBounds(deps.pool, filter.queue === undefined ? undefined : [filter.queue], async (tx) =>
      withQueues(await messageReplayMatching(tx, filter, n)),
    );
    announce(deps.changes, rows);
    return rows.length;
  });
  return { replayed };
}

/** Deletes up to `limit` (default: all) dead messages matching the filter, oldest first. */
export async function deleteMatching(deps: Deps, filter: DeadSelector, limit = Number.MAX_SAFE_INTEGER) {
  await checkQueue(deps.pool, filter.queue);
  return { deleted: await inChunks(limit, (n) => messageDeadDeleteMatching(deps.pool, filter, n)) };
}

export interface SelectionResult {
  succeeded: string[];
  failed: { message_id: string; status: number; code: BrokerError['code']; message: string }[];
}

/** Every id of the selection not done by this request, with why: gone, or not (any longer) DEAD. */
async function explainSelection(pool: Pool, ids: string[], done: Set<string>): Promise<SelectionResult> {
  const missed = ids.filter((id) => !done.has(id));
  const states = new Map(missed.length > 0 ? (await messageFindState(pool, missed)).map((s) => [s.id, s]) : []);
  return {
    succeeded: ids.filter((id) => done.has(id)),
    failed: missed.map((id) => {
      const state = states.get(id);
      return state
        ? { message_id: id, status: 409, code: 'message_not_dead' as const, message: `Message ${id} is ${state.status}, not DEAD` }
        : { message_id: id, status: 404, code: 'message_not_found' as const, message: `No message found with the id ${id}` };
    }),
  };
}

/**
 * Replays the dead messages with these ids, in one statement: the row lock on each dead row means
 * two requests naming the same message replay it once (the second finds it gone and says so).
 */
export async function replaySelection(deps: Deps, ids: string[]): Promise<SelectionResult> {
  const unique = [...new Set(ids)];
  const rows = await replayWithinBounds(deps.pool, undefined, async (tx) => withQueues(await messageReplayIds(tx, unique)));
  announce(deps.changes, rows);
  return explainSelection(deps.pool, unique, new Set(rows.map((row) => row.id)));
}

/** Deletes the dead messages with these ids, in one statement, reporting each as replaySelection does. */
export async function deleteSelection(deps: Deps, ids: string[]): Promise<SelectionResult> {
  const unique = [...new Set(ids)];
  const rows = await messageDeadDeleteIds(deps.pool, unique);
  return explainSelection(deps.pool, unique, new Set(rows.map((row) => row.id)));
}
