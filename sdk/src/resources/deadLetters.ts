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
  /** Only messages that died this way. */
  reason?: DeadReason;
}

export interface DeadLetterFilterOptions extends CallOptions {
  /** Only this queue; default every queue. */
  queue?: string;
  /** Only messages that died this way. */
  reason?: DeadReason;
  /** At most this many, oldest first; default all matching. */
  limit?: number;
}

export function deadLettersResource(t: Transport) {
  const list = (options: ListDeadLettersOptions = {}): Promise<MessagePage> =>
    t.api(DeadLettersApi, options).listDeadLetters({ queue: options.queue, reason: options.reason, limit: options.limit, cursor: options.cursor });
  return {
    /** One page of DEAD messages (view). */
    list,
    /** Every DEAD message, page after page (view). */
    all: (options: Omit<ListDeadLettersOptions, 'cursor'> = {}): AsyncGenerator<Message> => paginate((cursor) => list({ ...options, cursor })),
    /** Moves one DEAD message back to PENDING with retry_count 0 (admin). ConflictError if it is not DEAD. */
    replay: (messageId: string, options?: CallOptions): Promise<ReplayResult> => t.api(DeadLettersApi, options).replayDeadLetter({ id: messageId }),
    /**
     * Deletes one DEAD message for good (admin). NotFoundError (`message_not_found`) when no message
     * has the id; ConflictError (`message_not_dead`) when it is not DEAD, e.g. replayed meanwhile.
     */
    delete: (messageId: string, options?: CallOptions): Promise<void> => t.api(DeadLettersApi, options).deleteDeadLetter({ id: messageId }),
    /** Moves a queue's DEAD messages back to PENDING (admin). */
    replayAll: (queue: string, options: ReplayAllOptions = {}): Promise<BulkReplayResult> =>
      t.api(DeadLettersApi, options).replayDeadLetters({ bulkReplayRequest: { queue, reason: options.reason, limit: options.limit } }),
    /** Replays the DEAD messages matching the filter, of every queue unless `queue` (admin). */
    replayMatching: (options: DeadLetterFilterOptions = {}): Promise<BulkReplayResult> =>
      t.api(DeadLettersApi, options).replayDeadLetters({ bulkReplayRequest: { queue: options.queue, reason: options.reason, limit: options.limit } }),
    /** Deletes the DEAD messages matching the filter, of every queue unless `queue` (admin). */
    deleteMatching: (options: DeadLetterFilterOptions = {}): Promise<BulkDeleteResult> =>
      t.api(DeadLettersApi, options).deleteDeadLetters({ deadLetterFilter: { queue: options.queue, reason: options.reason, limit: options.limit } }),
    /** Replays these DEAD messages (up to 500 ids); each id is reported succeeded or failed with its code (admin). */
    replayIds: (ids: string[], options?: CallOptions): Promise<DeadLetterSelectionResult> =>
      t.api(DeadLettersApi, options).replayDeadLetterSelection({ deadLetterSelection: { ids } }),
    /** Deletes these DEAD messages (up to 500 ids), reporting each as `replayIds` does (admin). */
    deleteIds: (ids: string[], options?: CallOptions): Promise<DeadLetterSelectionResult> =>
      t.api(DeadLettersApi, options).deleteDeadLetterSelection({ deadLetterSelection: { ids } }),
  };
}

export type DeadLettersResource = ReturnType<typeof deadLettersResource>;
