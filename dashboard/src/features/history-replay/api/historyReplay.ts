import type { HistoryReplayResult, MiniQueue, ReplayFrom } from '@miniqueue/sdk';

/** How many of the queue's acked messages a replay from `from` would deliver again; copies nothing. */
export const countReplay = (mq: MiniQueue, queue: string, from: ReplayFrom): Promise<HistoryReplayResult> =>
  mq.history.replay(queue, { ...from, dryRun: true });

/** Delivers them again, as new messages (one idempotency key per call: its retries never copy twice). */
export const replayFromHistory = (mq: MiniQueue, queue: string, from: ReplayFrom): Promise<HistoryReplayResult> => mq.history.replay(queue, from);
