import type { MiniQueue, PublishResult } from '@miniqueue/sdk';

export interface Draft {
  topic: string;
  payload: string;
  headers: { name: string; value: string }[];
  delaySeconds: number;
  idempotencyKey: string;
  orderingKey: string;
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
  });
}
