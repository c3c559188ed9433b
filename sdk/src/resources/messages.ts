import {
  MessagesApi,
  type AckResult,
  type BatchAckResult,
  type BatchPublishResult,
  type ExtendResult,
  type Message,
  type NackResult,
  type PublishResult,
} from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import { newIdempotencyKey } from '../idempotency.js';
import type { CallOptions } from '../options.js';

export interface PublishOptions extends CallOptions {
  /**
   * Stores the message at most once per key (and publishing client) for 24 hours. Default: a fresh
   * key per call, reused on that call's retries. Derive it from your own event id to make even a
   * re-send after a crash harmless. `null` sends none: the broker then stores every copy it is
   * sent, and a retried publish may be stored twice (for one-attempt callers such as a load test).
   */
  idempotencyKey?: string | null;
  /** String-to-string metadata carried with the message. */
  headers?: Record<string, string>;
  /** Seconds (0..900) before the message becomes claimable. */
  delaySeconds?: number;
  /**
   * Seconds (1..1209600) after the publish when the message expires: it is then never delivered,
   * and goes to the dead letters (TTL_EXPIRED) or is dropped, as each queue says. A queue's own
   * message_ttl_seconds, when earlier, wins.
   */
  expiresInSeconds?: number;
  /**
   * 0..9 (default 0). A queue with a max_priority delivers its highest priority first, oldest
   * first within one (a priority above its max_priority counts as that); other queues ignore it.
   * Messages of one ordering key keep their order whatever their priorities.
   */
  priority?: number;
  /**
   * Messages with the same ordering key are delivered one at a time, in publish order, in each
   * queue: the next is claimable once the one before was acked or went to the dead letters.
   */
  orderingKey?: string;
  /**
   * The group (a tenant, say; 1..200 characters) a queue with fairness 'by_key' shares its
   * messages out by: claims take turns between the groups that have a message waiting. Default:
   * the ordering key, else the empty group. Other queues ignore it.
   */
  groupKey?: string;
}

export interface BatchMessage {
  payload: string;
  headers?: Record<string, string>;
  delaySeconds?: number;
  /** As PublishOptions.expiresInSeconds. */
  expiresInSeconds?: number;
  /** As PublishOptions.priority. */
  priority?: number;
  /** As PublishOptions.orderingKey; items of one key are delivered in the batch's order. */
  orderingKey?: string;
  /** As PublishOptions.groupKey. */
  groupKey?: string;
  /** Default: a fresh key per message, so a retried batch is stored once; `null` sends none. */
  idempotencyKey?: string | null;
}

export interface ConsumeOptions extends CallOptions {
  /** Long poll: wait up to this many seconds (0..20) for a message. Default 0. */
  waitSeconds?: number;
}

export interface ReceiveOptions extends ConsumeOptions {
  /** Claim up to this many messages (1..100). Default 1. */
  maxMessages?: number;
}

export interface NackOptions extends CallOptions {
  /** true (default) retries the message; false sends it to the dead-letter queue. */
  requeue?: boolean;
  /** Seconds (0..900) before the requeued message is claimable again. */
  delaySeconds?: number;
  /** Why (at most 500 characters): kept with the message, and shown in the dead letters if it dies. */
  reason?: string;
  /**
   * false hands the message back without using a retry: PENDING again, retry count unchanged
   * (only with `requeue` true). Default true.
   */
  countRetry?: boolean;
}

/** The caller's key, a fresh one when none was given, or none at all for `null`. */
export const keyOf = (given: string | null | undefined): string | undefined => (given === null ? undefined : (given ?? newIdempotencyKey()));

export function publish(t: Transport, topic: string, payload: string, options: PublishOptions = {}): Promise<PublishResult> {
  const idempotencyKey = keyOf(options.idempotencyKey);
  return t.api(MessagesApi).publishMessage(
    {
      topic,
      idempotencyKey,
      publishRequest: {
        payload,
        headers: options.headers,
        delay_seconds: options.delaySeconds,
        expires_in_seconds: options.expiresInSeconds,
        priority: options.priority,
        ordering_key: options.orderingKey,
        group_key: options.groupKey,
      },
    },
    t.call(options),
  );
}

export function publishBatch(t: Transport, topic: string, messages: BatchMessage[], options: CallOptions = {}): Promise<BatchPublishResult> {
  const items = messages.map((message) => ({
    payload: message.payload,
    headers: message.headers,
    delay_seconds: message.delaySeconds,
    expires_in_seconds: message.expiresInSeconds,
    priority: message.priority,
    ordering_key: message.orderingKey,
    group_key: message.groupKey,
    idempotency_key: keyOf(message.idempotencyKey),
  }));
  return t.api(MessagesApi).publishBatch({ topic, batchPublishRequest: { messages: items } }, t.call(options));
}

export async function consume(t: Transport, queue: string, options: ConsumeOptions = {}): Promise<Message | null> {
  const waitSeconds = options.waitSeconds;
  const call = t.call(options, (waitSeconds ?? 0) * 1000);
  return (await t.api(MessagesApi).consumeMessage({ queue, waitSeconds, miniQueueInstance: t.instanceId }, call)) ?? null;
}

export async function receive(t: Transport, queue: string, options: ReceiveOptions = {}): Promise<Message[]> {
  const call = t.call(options, (options.waitSeconds ?? 0) * 1000);
  const result = await t
    .api(MessagesApi)
    .receiveMessages(
      { queue, miniQueueInstance: t.instanceId, receiveRequest: { max_messages: options.maxMessages, wait_seconds: options.waitSeconds } },
      call,
    );
  return result.messages;
}

export function ack(t: Transport, messageId: string, options: CallOptions = {}): Promise<AckResult> {
  return t.api(MessagesApi).ackMessage({ id: messageId, miniQueueInstance: t.instanceId }, t.call(options));
}

export function ackMany(t: Transport, messageIds: string[], options: CallOptions = {}): Promise<BatchAckResult> {
  return t.api(MessagesApi).ackMessages({ batchAckRequest: { message_ids: messageIds }, miniQueueInstance: t.instanceId }, t.call(options));
}

export function nack(t: Transport, messageId: string, options: NackOptions = {}): Promise<NackResult> {
  return t.api(MessagesApi).nackMessage(
    {
      id: messageId,
      miniQueueInstance: t.instanceId,
      nackRequest: { requeue: options.requeue, delay_seconds: options.delaySeconds, reason: options.reason, count_retry: options.countRetry },
    },
    t.call(options),
  );
}

export function extend(t: Transport, messageId: string, seconds: number, options: CallOptions = {}): Promise<ExtendResult> {
  return t.api(MessagesApi).extendLease({ id: messageId, miniQueueInstance: t.instanceId, extendRequest: { seconds } }, t.call(options));
}

/** One message by id, whatever its status (view, or consume on its queue). NotFoundError when none is there for you. */
export function get(t: Transport, messageId: string, options: CallOptions = {}): Promise<Message> {
  return t.api(MessagesApi, options).getMessage({ id: messageId });
}
