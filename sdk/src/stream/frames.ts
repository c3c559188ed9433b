/**
 * The frames of `/ws/v1/stream` (see asyncapi.yaml and api/src/stream/README.md), as they travel:
 * snake_case, timestamps as strings. One WebSocket message carries one frame or an array of them.
 * Written once, here: the broker checks the frames it reads against these types and bounds too
 * (api/src/stream/frames.ts), and both are held to asyncapi.yaml by the broker's contract tests.
 */
import type { MonitorEvent } from '../monitor/events.js';
import type { RefusedCopy } from '../generated/index.js';

export const STREAM_PATH = '/ws/v1/stream';
export const STREAM_SUBPROTOCOL = 'miniqueue.v1';
/** The most frames the broker reads from one WebSocket message. */
export const MAX_FRAMES_PER_MESSAGE = 1000;
/** The most ids one `ack` frame may carry. */
export const MAX_ACK_IDS = 1000;
/** The most ids one `extend` frame may carry. */
export const MAX_EXTEND_IDS = 1000;
/** The most unacked messages one subscription may hold (its `prefetch`). */
export const MAX_PREFETCH = 1000;

export interface PublishFrame {
  type: 'publish';
  seq: number;
  topic: string;
  payload: string;
  headers?: Record<string, string>;
  delay_seconds?: number;
  /** Seconds after the publish when the message expires (the queue's message_ttl_seconds may be earlier). */
  expires_in_seconds?: number;
  /** 0..9 (default 0): queues with a max_priority deliver higher first. */
  priority?: number;
  ordering_key?: string;
  /** In queues with fairness by_key: the group it is shared out by (default: its ordering_key). */
  group_key?: string;
  idempotency_key?: string;
}

export interface SubscribeFrame {
  type: 'subscribe';
  sub: string;
  queue: string;
  prefetch: number;
}
export interface CreditFrame {
  type: 'credit';
  sub: string;
  prefetch: number;
}
export interface UnsubscribeFrame {
  type: 'unsubscribe';
  sub: string;
}
export interface AckFrame {
  type: 'ack';
  ids: string[];
  ref?: number;
}
export interface NackFrame {
  type: 'nack';
  id: string;
  requeue?: boolean;
  delay_seconds?: number;
  reason?: string;
  /** false (with requeue): a hand back, not a failure: PENDING again with its retry count unchanged. Default true. */
  count_retry?: boolean;
  ref?: number;
}
/** One message's lease (`id`), or many (`ids`, answered per id): exactly one of the two. */
export type ExtendFrame = { type: 'extend'; seconds: number; ref?: number } & ({ id: string; ids?: undefined } | { ids: string[]; id?: undefined });

/** The broker's live feed on the stream, as `/ws/monitor` sends it: every transition, or one queue's. */
export interface WatchFrame {
  type: 'watch';
  /** The client's name for the watch; watches and subscriptions of a stream share one set of names. */
  sub: string;
  /** Only this queue's events (and EVENTS_DROPPED). */
  queue?: string;
}
export interface UnwatchFrame {
  type: 'unwatch';
  sub: string;
}

export type ClientFrame = PublishFrame | SubscribeFrame | CreditFrame | UnsubscribeFrame | AckFrame | NackFrame | ExtendFrame | WatchFrame | UnwatchFrame;

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
  | { type: 'confirm'; seq: number; message_ids: string[]; queues: string[]; duplicate: boolean; refused?: RefusedCopy[] }
  | ({ type: 'reject'; seq: number } & ErrorFields)
  | { type: 'deliver'; sub: string; message: Record<string, unknown>; resent?: boolean }
  | { type: 'subscribed'; sub: string; queue?: string; prefetch?: number }
  | { type: 'unsubscribed'; sub: string }
  | ({ type: 'subscription_ended'; sub: string } & ErrorFields)
  | { type: 'acked'; ref: number; acked: string[]; failed: Array<{ message_id: string } & ErrorFields> }
  | { type: 'nacked'; ref: number; message_id: string; status: string }
  | { type: 'extended'; ref: number; message_id: string; lease_expires_at: string }
  | { type: 'extended'; ref: number; extended: Array<{ message_id: string; lease_expires_at: string }>; failed: Array<{ message_id: string } & ErrorFields> }
  | { type: 'watching'; sub: string; queue?: string }
  | { type: 'event'; sub: string; event: MonitorEvent }
  | { type: 'unwatched'; sub: string }
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
