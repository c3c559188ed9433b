import { DeadLettersApi, type BulkReplayResult, type Message, type MessagePage, type ReplayResult } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';
import { paginate } from './paginate.js';

export interface ListDeadLettersOptions extends CallOptions {
  /** Only this queue's dead messages; default all queues. */
  queue?: string;
  limit?: number;
  cursor?: string;
}

export interface ReplayAllOptions extends CallOptions {
  /** Replay at most this many, oldest first; default all of them. */
  limit?: number;
}

export function deadLettersResource(t: Transport) {
  const list = (options: ListDeadLettersOptions = {}): Promise<MessagePage> =>
    t.api(DeadLettersApi, options).listDeadLetters({ queue: options.queue, limit: options.limit, cursor: options.cursor });
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
  };
}

export type DeadLettersResource = ReturnType<typeof deadLettersResource>;
