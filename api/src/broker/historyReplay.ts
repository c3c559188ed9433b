import { ConflictError, NotFoundError } from '../errors.js';
import { withTransaction, type Pool } from '../db/pool.js';
import { queueGet } from '../db/queries/queue.js';
import {
  historyReplayBatch,
  historyReplayByKey,
  historyReplayCount,
  historyReplayInsert,
  historyReplayLock,
  historyRetainedFrom,
  messageTableLockForInsert,
  replayAnchorFind,
  type HistoryReplayRow,
  type ReplayStart,
} from '../db/queries/historyReplay.js';
import { transitionsOf, type Changes } from './changes.js';
import { lockForReplay, refuseOverflow } from './bounds.js';

/**
 * Copies per batch. Each batch is its own transaction, which also moves the request's cursor: a
 * replay of millions never holds one long transaction, and one interrupted half-way continues
 * where it stopped when asked again with the same idempotency key (nothing is copied twice).
 */
export const HISTORY_REPLAY_BATCH = 1_000;

export interface HistoryReplayAsk {
  queue: string;
  /** Messages published at or after this time … */
  since?: string;
  /** … or published after this message. */
  afterId?: string;
  dryRun: boolean;
  idempotencyKey?: string;
}

export interface HistoryReplayResult {
  replay_id: string | null;
  queue: string;
  dry_run: boolean;
  /** Copied, or on a dry run how many would be. */
  messages: number;
  /** The first publish time considered. */
  since: string;
  /** Only messages acked up to this time are replayed. */
  until: string;
}

interface Deps {
  pool: Pool;
  changes: Changes;
  config: { ackedRetentionHours: number };
}

const iso = (pgTime: string) => new Date(pgTime).toISOString();

async function startOf(deps: Deps, ask: HistoryReplayAsk): Promise<ReplayStart> {
  if (ask.afterId === undefined) return { publishedAt: ask.since as string, seq: 0 };
  const anchor = await replayAnchorFind(deps.pool, ask.queue, ask.afterId);
  if (!anchor) throw new NotFoundError('message_not_found', `No message ${ask.afterId} in queue ${ask.queue} to replay after`);
  return anchor;
}

/** A replay that would miss messages is refused: history is kept only `retentionHours` after each ack. */
async function checkRetained(deps: Deps, queue: string, retentionHours: number, start: ReplayStart): Promise<void> {
  if (retentionHours === 0) {
    throw new ConflictError('history_not_retained', `Queue ${queue} keeps no acked messages (acked_retention_hours is 0): there is no history to replay`);
  }
  const retained = await historyRetainedFrom(deps.pool, retentionHours, start.publishedAt);
  if (retained.before) {
    throw new ConflictError(
      'history_not_retained',
      `Queue ${queue} keeps acked messages for ${retentionHours} hours: replays can start at ${iso(retained.earliest)} at the earliest, not ${iso(start.publishedAt)}`,
    );
  }
}

async function requestFor(deps: Deps, queue: string, start: ReplayStart, key: string | undefined): Promise<HistoryReplayRow> {
  const created = await historyReplayInsert(deps.pool, queue, start, key ?? null);
  if (created) return created;
  const earlier = await historyReplayByKey(deps.pool, queue, key as string, start);
  if (!earlier) throw new NotFoundError('queue_not_found', `No queue found with the name ${queue}`);
  if (!earlier.same_start) throw new ConflictError('idempotency_conflict', `Idempotency key ${key} was used for another replay of ${queue}`);
  return earlier;
}

/** Runs the request's batches until it is finished (by this call or by another one). */
async function runBatches(deps: Deps, request: HistoryReplayRow, retentionHours: number): Promise<number> {
  let replayed = request.replayed;
  let finished = request.finished;
  while (!finished) {
    const batch = await withTransaction(deps.pool, async (client) => {
      await messageTableLockForInsert(client);
      const bounded = await lockForReplay(client, [request.queue_name]);
      const current = await historyReplayLock(client, request.id);
      // Gone with its queue, or finished by a concurrent call with the same key.
      if (!current || current.finished) return { copies: [], replayed: current?.replayed ?? replayed, finished: true };
      const done = await historyReplayBatch(client, current, retentionHours, HISTORY_REPLAY_BATCH);
      // A batch that does not fit is undone with its cursor: asked again, the replay goes on from here.
      await refuseOverflow(client, bounded, done.copies.length > 0 ? [request.queue_name] : []);
      return done;
    });
    if (batch.copies.length > 0) {
      deps.changes.committed(
        transitionsOf(
          'PUBLISHED',
          batch.copies.map((copy) => ({ queue: copy.queue_name, id: copy.id, availableAt: copy.available_at, delayed: false })),
        ),
      );
    }
    ({ replayed, finished } = batch);
  }
  return replayed;
}

export async function replayHistory(deps: Deps, ask: HistoryReplayAsk): Promise<HistoryReplayResult> {
  const queue = await queueGet(deps.pool, ask.queue);
  if (!queue) throw new NotFoundError('queue_not_found', `No queue found with the name ${ask.queue}`);
  const retentionHours = queue.acked_retention_hours ?? deps.config.ackedRetentionHours;
  const start = await startOf(deps, ask);
  await checkRetained(deps, ask.queue, retentionHours, start);
  const since = iso(start.publishedAt);
  if (ask.dryRun) {
    const { count, until } = await historyReplayCount(deps.pool, ask.queue, start, retentionHours);
    return { replay_id: null, queue: ask.queue, dry_run: true, messages: count, since, until: iso(until) };
  }
  const request = await requestFor(deps, ask.queue, start, ask.idempotencyKey);
  const messages = await runBatches(deps, request, retentionHours);
  return { replay_id: request.id, queue: ask.queue, dry_run: false, messages, since, until: iso(request.until_acked_at) };
}
