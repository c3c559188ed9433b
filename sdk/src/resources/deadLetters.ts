import {
  DeadLettersApi,
  type BulkDeleteResult,
  type BulkReplayResult,
  type DeadLetterSelectionResult,
  type DeadReason,
  type Message,
  type MessagePage,
  type ReplayResult,
} from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';
import { paginate } from './paginate.js';

export interface ListDeadLettersOptions extends CallOptions {
  /** Only this queue's dead messages; default all queues. */
  queue?: string;
  /** Only messages that died this way. */
  reason?: DeadReason;
  limit?: number;
  cursor?: string;
}

export interface ReplayAllOptions extends CallOptions {
  /** Replay at most this many, oldest first; default all of them. */
  limit?: number;
}

/** Which dead messages a bulk replay or delete takes: of one queue and/or one kind of death, at most `limit`. */
export interface DeadLetterMatch extends CallOptions {
  queue?: string;
  reason?: DeadReason;
  /** At most this many, oldest first; default all that match. */
  limit?: number;
}

export function deadLettersResource(t: Transport) {
  const list = (options: ListDeadLettersOptions = {}): Promise<MessagePage> =>
    t.api(DeadLettersApi, options).listDeadLetters({ queue: options.queue, reason: options.reason, limit: options.limit, cursor: options.cursor });
  return {
    /** One page of DEAD messages (view). */
    list,
    /** Every DEAD message, page after page (view). */
    all: (options: Omit<ListDeadLettersOptions, 'cursor'> = {}): AsyncGenerator<Message> =>
      paginate((cursor) => list({ ...options, cursor })),
    /** Moves one DEAD message back to PENDING with retry_count 0 (admin). ConflictError if it is not DEAD. */
    replay: (messageId: string, options?: CallOptions): Promise<ReplayResult> =>
      t.api(DeadLettersApi, options).replayDeadLetter({ id: messageId }),
    /**
     * Deletes one DEAD message for good (admin). NotFoundError (`message_not_found`) when no message
     * has the id; ConflictError (`message_not_dead`) when it is not DEAD, e.g. replayed meanwhile.
     */
    delete: (messageId: string, options?: CallOptions): Promise<void> =>
      t.api(DeadLettersApi, options).deleteDeadLetter({ id: messageId }),
    /** Moves a queue's DEAD messages back to PENDING (admin). */
    replayAll: (queue: string, options: ReplayAllOptions = {}): Promise<BulkReplayResult> =>
      t.api(DeadLettersApi, options).replayDeadLetters({ bulkReplayRequest: { queue, limit: options.limit } }),
    /** Moves the DEAD messages matching the filter back to PENDING, of every queue when none is named (admin). */
    replayMatching: (match: DeadLetterMatch = {}): Promise<BulkReplayResult> =>
      t.api(DeadLettersApi, match).replayDeadLetters({ bulkReplayRequest: { queue: match.queue, reason: match.reason, limit: match.limit } }),
    /** Replays the DEAD messages with these ids (1..1000); each id is reported as succeeded or failed (admin). */
    replaySelection: (messageIds: string[], options?: CallOptions): Promise<DeadLetterSelectionResult> =>
      t.api(DeadLettersApi, options).replayDeadLetterSelection({ deadLetterSelection: { ids: messageIds } }),
    /** Deletes the DEAD messages with these ids (1..1000); each id is reported as succeeded or failed (admin). */
    deleteSelection: (messageIds: string[], options?: CallOptions): Promise<DeadLetterSelectionResult> =>
      t.api(DeadLettersApi, options).deleteDeadLetterSelection({ deadLetterSelection: { ids: messageIds } }),
    /** Deletes the DEAD messages matching the filter, of every queue when none is named (admin). */
    deleteMatching: (match: DeadLetterMatch = {}): Promise<BulkDeleteResult> =>
      t.api(DeadLettersApi, match).deleteDeadLetters({ deadLetterFilter: { queue: match.queue, reason: match.reason, limit: match.limit } }),
  };
}

export type DeadLettersResource = ReturnType<typeof deadLettersResource>;
