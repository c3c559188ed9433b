import type { MessageRow } from '../db/queries/messageRow.js';
import { recordSpans, tracing } from '../tracing/spans.js';

/** A delivery span per claimed message (when tracing is on), from `started` (now() before the claim). */
export function traceDeliveries(rows: MessageRow[], started: number): void {
  if (!tracing.enabled) return;
  const delivered = rows.map((row) => ({
    id: row.id,
    queue_name: row.queue_name,
    trace: row.headers,
    attributes: { 'messaging.client.id': row.consumer_id ?? '' },
  }));
  recordSpans(delivered, 'receive', 'deliver', started);
}
