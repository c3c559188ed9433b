import { LIMITS, type MiniQueue, type PublishResult } from '@miniqueue/sdk';
import { optionalWholeNumber } from '../../../lib/wholeNumber';

export interface Draft {
  topic: string;
  payload: string;
  headers: { name: string; value: string }[];
  delaySeconds: number;
  idempotencyKey: string;
  orderingKey: string;
  /** '' for the broker's default (0), else '0' to '9'. */
  priority: string;
  /** Seconds after the publish at which the message expires; '' for never (or the queue's TTL). */
  expiresInSeconds: string;
  groupKey: string;
}

const { min: EXPIRES_MIN, max: EXPIRES_MAX } = LIMITS.expiresInSeconds;
const EXPIRES_WRONG = `A whole number of seconds from ${EXPIRES_MIN} to ${EXPIRES_MAX}, or empty.`;

/** What is wrong with an expiry as typed, or null when it is empty or a whole number in the contract's range. */
export function expiresProblem(text: string): string | null {
  const expiry = optionalWholeNumber(text, LIMITS.expiresInSeconds, { notWhole: EXPIRES_WRONG, outOfRange: EXPIRES_WRONG });
  return typeof expiry === 'string' ? expiry : null;
}

/** Header rows as the API takes them: blank rows are ignored, a repeated name keeps its last value. */
export function headersOf(rows: Draft['headers']): Record<string, string> | undefined {
  const filled = rows.filter((row) => row.name.trim() !== '');
  if (filled.length === 0) return undefined;
  return Object.fromEntries(filled.map((row) => [row.name.trim(), row.value]));
}

export const loadTopicNames = async (mq: MiniQueue, signal: AbortSignal): Promise<string[]> => (await mq.topics.list({ signal })).map((topic) => topic.name);

export function publishDraft(mq: MiniQueue, draft: Draft): Promise<PublishResult> {
  return mq.publish(draft.topic, draft.payload, {
    headers: headersOf(draft.headers),
    delaySeconds: draft.delaySeconds || undefined,
    idempotencyKey: draft.idempotencyKey.trim() || undefined,
    orderingKey: draft.orderingKey.trim() || undefined,
    priority: draft.priority === '' ? undefined : Number(draft.priority),
    expiresInSeconds: draft.expiresInSeconds.trim() === '' ? undefined : Number(draft.expiresInSeconds.trim()),
    groupKey: draft.groupKey.trim() || undefined,
  });
}
