import type { DeadLetterSelectionResult, DeadReason, MessagePage, MiniQueue } from '@miniqueue/sdk';
import { formatCount } from '../../../lib/format';

export const DLQ_PAGE_SIZE = 20;

export interface DeadLetterQuery {
  queue?: string;
  reason?: DeadReason;
}

export const loadDeadLetters = (mq: MiniQueue, query: DeadLetterQuery, options: { cursor?: string; signal: AbortSignal }): Promise<MessagePage> =>
  mq.dlq.list({ ...query, cursor: options.cursor, limit: DLQ_PAGE_SIZE, signal: options.signal });

export const replayOne = (mq: MiniQueue, messageId: string) => mq.dlq.replay(messageId);
export const deleteOne = (mq: MiniQueue, messageId: string) => mq.dlq.delete(messageId);
export const replaySelected = (mq: MiniQueue, ids: string[]) => mq.dlq.replaySelection(ids);
export const deleteSelected = (mq: MiniQueue, ids: string[]) => mq.dlq.deleteSelection(ids);
export const replayMatching = (mq: MiniQueue, query: DeadLetterQuery) => mq.dlq.replayMatching(query);
export const deleteMatching = (mq: MiniQueue, query: DeadLetterQuery) => mq.dlq.deleteMatching(query);

const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;

/** A selection's outcome in one sentence: what was done, and what was not and why (someone else got there first). */
export function describeSelection(verb: 'Replayed' | 'Deleted', result: DeadLetterSelectionResult): string {
  const done = `${verb} ${messages(result.succeeded.length)}.`;
  if (result.failed.length === 0) return done;
  const gone = result.failed.filter((failure) => failure.status === 404).length;
  const alive = result.failed.length - gone;
  const reasons = [gone > 0 && `${messages(gone)} no longer existed`, alive > 0 && `${messages(alive)} ${alive === 1 ? 'was' : 'were'} no longer dead`].filter(Boolean);
  return `${done} ${reasons.join(' and ')}, so ${result.failed.length === 1 ? 'it was' : 'they were'} left alone.`;
}

/** What a filter covers, for confirmations: "the dead letters of email-queue that expired". */
export function describeQuery(query: DeadLetterQuery, reasonLabel: (reason: DeadReason) => string): string {
  const where = query.queue ? ` of ${query.queue}` : ' of every queue';
  return `the dead letters${where}${query.reason ? ` (${reasonLabel(query.reason).toLowerCase()})` : ''}`;
}
