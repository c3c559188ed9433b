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
/** The most ids one selection request takes; a bigger selection is sent in several. */
export const SELECTION_LIMIT = 500;

/** A selection of any size, in requests of at most SELECTION_LIMIT ids, the outcomes added up. */
export async function inSelections(ids: string[], send: (chunk: string[]) => Promise<DeadLetterSelectionResult>): Promise<DeadLetterSelectionResult> {
  const outcome: DeadLetterSelectionResult = { succeeded: [], failed: [] };
  for (let start = 0; start < ids.length; start += SELECTION_LIMIT) {
    const result = await send(ids.slice(start, start + SELECTION_LIMIT));
    outcome.succeeded.push(...result.succeeded);
    outcome.failed.push(...result.failed);
  }
  return outcome;
}

export const replaySelected = (mq: MiniQueue, ids: string[]) => inSelections(ids, (chunk) => mq.dlq.replayIds(chunk));
export const deleteSelected = (mq: MiniQueue, ids: string[]) => inSelections(ids, (chunk) => mq.dlq.deleteIds(chunk));
export const replayMatching = (mq: MiniQueue, query: DeadLetterQuery) => mq.dlq.replayMatching(query);
export const deleteMatching = (mq: MiniQueue, query: DeadLetterQuery) => mq.dlq.deleteMatching(query);

const messages = (count: number) => `${formatCount(count)} ${count === 1 ? 'message' : 'messages'}`;

/** A selection's outcome in one sentence: what was done, and what was not and why (someone else got there first). */
export function describeSelection(verb: 'Replayed' | 'Deleted', result: DeadLetterSelectionResult): string {
  const done = `${verb} ${messages(result.succeeded.length)}.`;
  if (result.failed.length === 0) return done;
  const gone = result.failed.filter((failure) => failure.status === 404).length;
  const alive = result.failed.length - gone;
  const reasons = [gone > 0 && `${messages(gone)} no longer existed`, alive > 0 && `${messages(alive)} ${alive === 1 ? 'was' : 'were'} no longer dead`].filter(
    Boolean,
  );
  return `${done} ${reasons.join(' and ')}, so ${result.failed.length === 1 ? 'it was' : 'they were'} left alone.`;
}

/** What a filter covers, for confirmations: "the dead letters of email-queue that expired". */
export function describeQuery(query: DeadLetterQuery, reasonLabel: (reason: DeadReason) => string): string {
  const where = query.queue ? ` of ${query.queue}` : ' of every queue';
  return `the dead letters${where}${query.reason ? ` (${reasonLabel(query.reason).toLowerCase()})` : ''}`;
}
