import { QueuesApi, type HistoryReplayResult, type Message } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import { newIdempotencyKey } from '../idempotency.js';
import type { CallOptions } from '../options.js';

/** Where a replay from history starts: a time, or after a message of the queue. */
export type ReplayFrom = { since: Date | string; afterId?: never } | { afterId: string; since?: never };

export type ReplayHistoryOptions = CallOptions &
  ReplayFrom & {
    /** Only count what would be replayed. */
    dryRun?: boolean;
    /**
     * The same key on the same queue is the same replay: a repeat continues it and never copies a
     * message twice. Default: a fresh key per call, so the SDK's own retries are safe.
     */
    idempotencyKey?: string;
  };

/** What a replayed copy carries about its original (the broker's reserved `miniqueue-` headers). */
export interface ReplayInfo {
  originalId: string;
  originalPublishedAt: Date;
  replayId: string;
  redelivered: boolean;
}

/** The replay headers of a delivered message; null for a message that is not a replayed copy. */
export function replayInfo(message: Pick<Message, 'headers'>): ReplayInfo | null {
  const headers = message.headers;
  const originalId = headers['miniqueue-replay-of'];
  if (originalId === undefined) return null;
  return {
    originalId,
    originalPublishedAt: new Date(headers['miniqueue-original-published-at'] ?? ''),
    replayId: headers['miniqueue-replay-id'] ?? '',
    redelivered: headers['miniqueue-redelivered'] === 'true',
  };
}

export function historyResource(t: Transport) {
  return {
    /**
     * Delivers a queue's retained acked messages again, as new messages (admin): those published at
     * or after `since`, or after `afterId`. ConflictError (`history_not_retained`) when the start is
     * earlier than the queue's history reaches back.
     */
    replay: (queue: string, options: ReplayHistoryOptions): Promise<HistoryReplayResult> => {
      const since = options.since === undefined ? undefined : new Date(options.since);
      return t.api(QueuesApi, options).replayQueueHistory({
        queue,
        idempotencyKey: options.dryRun ? undefined : (options.idempotencyKey ?? newIdempotencyKey()),
        historyReplayRequest: { since, after_id: options.afterId, dry_run: options.dryRun },
      });
    },
  };
}

export type HistoryResource = ReturnType<typeof historyResource>;
