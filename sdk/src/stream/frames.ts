/**
 * The frames of `/ws/v1/stream` (see asyncapi.yaml and api/src/stream/README.md), as they travel:
 * snake_case, timestamps as strings. One WebSocket message carries one frame or an array of them.
 */

export const STREAM_PATH = '/ws/v1/stream';
export const STREAM_SUBPROTOCOL = 'miniqueue.v1';
/** The most frames the broker reads from one WebSocket message. */
export const MAX_FRAMES_PER_MESSAGE = 1000;
/** The most ids one `ack` frame may carry. */
export const MAX_ACK_IDS = 1000;

export interface PublishFrame {
  type: 'publish';
  seq: number;
  topic: string;
  payload: string;
  headers?: Record<string, string>;
  delay_seconds?: number;
  ordering_key?: string;
  idempotency_key?: string;
}

export type ClientFrame =
  | PublishFrame
  | { type: 'subscribe'; sub: string; queue: string; prefetch: number }
  | { type: 'credit'; sub: string; prefetch: number }
  | { type: 'unsubscribe'; sub: string }
  | { type: 'ack'; ids: string[]; ref?: number }
  | { type: 'nack'; id: string; requeue?: boolean; delay_seconds?: number; reason?: string; ref?: number }
  | { type: 'extend'; id: string; seconds: number; ref?: number };

export interface StreamLimits {
  max_message_bytes: number;
  max_unconfirmed: number;
  max_subscriptions: number;
  max_prefetch: number;
  resume_grace_ms: number;
}

/** The HTTP error body, as `reject`, `error` and `subscription_ended` carry it. */
export interface ErrorFields {
  status: number;
  code?: string;
  message?: string;
  errors?: unknown;
  scope?: string;
  /** On 429 and 503: how long to wait before the same frame may succeed (HTTP's Retry-After). */
  retry_after_seconds?: number;
}

export type BrokerFrame =
  | { type: 'welcome'; stream_id: string; resume_token: string; resumed: boolean; limits: StreamLimits }
  | { type: 'confirm'; seq: number; message_ids: string[]; queues: string[]; duplicate: boolean }
  | ({ type: 'reject'; seq: number } & ErrorFields)
  | { type: 'deliver'; sub: string; message: Record<string, unknown>; resent?: boolean }
  | { type: 'subscribed'; sub: string; queue?: string; prefetch?: number }
  | { type: 'unsubscribed'; sub: string }
  | ({ type: 'subscription_ended'; sub: string } & ErrorFields)
  | { type: 'acked'; ref: number; acked: string[]; failed: Array<{ message_id: string } & ErrorFields> }
  | { type: 'nacked'; ref: number; message_id: string; status: string }
  | { type: 'extended'; ref: number; message_id: string; lease_expires_at: string }
  | ({ type: 'error'; ref?: number; sub?: string; seq?: number } & ErrorFields);

/**
 * The frames of one WebSocket message; frames that are not objects with a `type` are dropped
 * (a newer broker may add fields; it may not change what a known frame means).
 */
export function decodeFrames(data: string): BrokerFrame[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return [];
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  return list.filter((frame): frame is BrokerFrame => typeof frame === 'object' && frame !== null && typeof frame.type === 'string');
}

/** One frame as itself, several as an array: the two forms the broker accepts. */
export function encodeFrames(frames: readonly ClientFrame[]): string {
  return JSON.stringify(frames.length === 1 ? frames[0] : frames);
}
