import {
  QueuesApi,
  type Fairness,
  type HeaderFilter,
  type ListQueueMessagesOrderEnum,
  type Message,
  type MessagePage,
  type MessageStatus,
  type OnExpiry,
  type Overflow,
  type PurgeResult,
  type Queue,
  type QueueAttentionSettings,
  type UpdateQueueRequest,
} from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';
import { paginate } from './paginate.js';

export interface CreateQueueOptions extends CallOptions {
  /** Lease length of a claimed message, 1..43200 seconds. Default 30. */
  ackTimeoutSeconds?: number;
  /** Redeliveries allowed before a message goes to the dead-letter queue, 0..100. Default 5. */
  maxRetries?: number;
  /** Refuse publishes without an ordering key that this queue would take (400 ordering_key_required). Default false. */
  requireOrderingKey?: boolean;
  /** Take only the messages whose headers match, e.g. `{ header: 'region', one_of: ['eu', 'us'] }`. Default: all. */
  filter?: HeaderFilter;
  /** Give messages to one consumer (credential + MiniQueue-Instance) at a time; the next takes over when it stops. Default false. */
  singleActiveConsumer?: boolean;
  /** Deliveries per second across every broker instance, 1..100000; claims beyond it wait. Default: no limit. */
  maxDeliveriesPerSecond?: number;
  /** At most this many messages (pending + unacked) at once. Default: no bound. */
  maxMessages?: number;
  /** At most this many payload bytes (UTF-8, headers not counted) at once. Default: no bound. */
  maxBytes?: number;
  /**
   * What a publish without room does: 'reject_publish' (429 queue_full for the whole publish, the default: on a shared topic
   * one full queue stops every queue's copy), 'reject_copy' (only this queue's copy; the result's `refused` names it),
   * 'dead_letter_oldest' or 'drop_oldest'.
   */
  overflow?: Overflow;
  /** Messages expire this many seconds after their publish (1..1209600); a publish's own expiry may be earlier. Default: never. */
  messageTtlSeconds?: number;
  /** What an expired message becomes: 'dead_letter' (TTL_EXPIRED, the default) or 'drop'. */
  onExpiry?: OnExpiry;
  /** A topic this queue's dead letters are published to, with miniqueue-death-* headers. Default: none. */
  deadLetterTopic?: string;
  /** With a dead-letter topic: also keep each dead letter in this queue's own DLQ. Default false. */
  deadLetterKeep?: boolean;
  /** Deliver the highest publish priority first (1..9: the highest honoured); fixed for the queue's life. Default: none, oldest first. */
  maxPriority?: number;
  /**
   * 'by_key': share deliveries out between the group keys of the messages (a publish's groupKey,
   * else its ordering key), in turn, oldest first within each; fixed for the queue's life, and not
   * with maxPriority. Default 'none': oldest first.
   */
  fairness?: Fairness;
  /** With fairness 'by_key': at most this many messages of one group key unacked at once, 1..10000. Default: no limit per key. */
  maxInFlightPerKey?: number;
  /** When the dashboard flags the queue: `muted`, or its own `oldest_pending_seconds`, `backlog_growth`, `dead_per_minute`. Default: the flags' own numbers. */
  attention?: QueueAttentionSettings;
}

/** The settings to change; those left out keep their value. */
export interface QueueChanges {
  /** Lease length of a claimed message, 1..43200 seconds (leases taken from now on). */
  ackTimeoutSeconds?: number;
  /** Redeliveries allowed before a message goes to the dead-letter queue, 0..100. */
  maxRetries?: number;
  /** Hours acked messages are kept, 0..8760; null follows the broker's default again. */
  ackedRetentionHours?: number | null;
  /** Refuse publishes without an ordering key that this queue would take. */
  requireOrderingKey?: boolean;
  /** A new header filter; null takes every message of the topic again. */
  filter?: HeaderFilter | null;
  /** One consumer at a time (from the next claim on). */
  singleActiveConsumer?: boolean;
  /** Deliveries per second across every instance, 1..100000; null lifts the limit (from the next claim on). */
  maxDeliveriesPerSecond?: number | null;
  /** A new bound on messages (pending + unacked); null removes it. Applies to what is published after. */
  maxMessages?: number | null;
  /** A new bound on payload bytes; null removes it. Applies to what is published after. */
  maxBytes?: number | null;
  /** What a publish without room does from now on. */
  overflow?: Overflow;
  /** A new time to live; null: messages do not expire unless their publish says. Applies to what is published after. */
  messageTtlSeconds?: number | null;
  /** What an expired message becomes from now on. */
  onExpiry?: OnExpiry;
  /** A new dead-letter topic; null: dead letters stay in this queue's DLQ only. */
  deadLetterTopic?: string | null;
  /** Whether a routed dead letter also stays in this queue's DLQ. */
  deadLetterKeep?: boolean;
  /** With fairness 'by_key': at most this many messages of one group key unacked at once, 1..10000; null lifts the limit (from the next claim on). */
  maxInFlightPerKey?: number | null;
  /** New attention settings, as a whole: a key left out takes its default (not muted; each threshold null: the flag's own number). */
  attention?: QueueAttentionSettings;
}

export interface ListMessagesOptions extends CallOptions {
  status?: MessageStatus;
  /** 'asc' (default): oldest first, the order of delivery; 'desc': newest first. */
  order?: ListQueueMessagesOrderEnum;
  /**
   * Only messages whose header `name` is exactly `value`. Each page then examines a bounded number
   * of messages, so it may be short (even empty) while `next_cursor` is set: keep following it.
   */
  header?: { name: string; value: string };
  /** Page size, 1..500. Default 50. */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

export function queuesResource(t: Transport) {
  const messages = (queue: string, options: ListMessagesOptions = {}): Promise<MessagePage> =>
    t.api(QueuesApi, options).listQueueMessages({
      queue,
      status: options.status,
      order: options.order,
      header: options.header ? `${options.header.name}=${options.header.value}` : undefined,
      limit: options.limit,
      cursor: options.cursor,
    });
  return {
    /** Creates a queue bound to an existing topic (admin). */
    create: (name: string, topic: string, options: CreateQueueOptions = {}): Promise<Queue> =>
      t.api(QueuesApi, options).createQueue({
        createQueueRequest: {
          name,
          topic_name: topic,
          ack_timeout_seconds: options.ackTimeoutSeconds,
          max_retries: options.maxRetries,
          require_ordering_key: options.requireOrderingKey,
          filter: options.filter,
          single_active_consumer: options.singleActiveConsumer,
          max_deliveries_per_second: options.maxDeliveriesPerSecond,
          max_messages: options.maxMessages,
          max_bytes: options.maxBytes,
          overflow: options.overflow,
          message_ttl_seconds: options.messageTtlSeconds,
          on_expiry: options.onExpiry,
          dead_letter_topic: options.deadLetterTopic,
          dead_letter_keep: options.deadLetterKeep,
          max_priority: options.maxPriority,
          fairness: options.fairness,
          max_in_flight_per_key: options.maxInFlightPerKey,
          attention: options.attention,
        },
      }),
    /** One queue and its settings (view). */
    get: (name: string, options?: CallOptions): Promise<Queue> => t.api(QueuesApi, options).getQueue({ queue: name }),
    /** Changes the settings given and keeps the others (admin). */
    update: (name: string, changes: QueueChanges, options?: CallOptions): Promise<Queue> => {
      const request: UpdateQueueRequest = {
        ack_timeout_seconds: changes.ackTimeoutSeconds,
        max_retries: changes.maxRetries,
        acked_retention_hours: changes.ackedRetentionHours,
        require_ordering_key: changes.requireOrderingKey,
        filter: changes.filter,
        single_active_consumer: changes.singleActiveConsumer,
        max_deliveries_per_second: changes.maxDeliveriesPerSecond,
        max_messages: changes.maxMessages,
        max_bytes: changes.maxBytes,
        overflow: changes.overflow,
        message_ttl_seconds: changes.messageTtlSeconds,
        on_expiry: changes.onExpiry,
        dead_letter_topic: changes.deadLetterTopic,
        dead_letter_keep: changes.deadLetterKeep,
        max_in_flight_per_key: changes.maxInFlightPerKey,
        attention: changes.attention,
      };
      return t.api(QueuesApi, options).updateQueue({ queue: name, updateQueueRequest: request });
    },
    /** Every queue (view). */
    list: (options?: CallOptions): Promise<Queue[]> => t.api(QueuesApi, options).listQueues(),
    /** Deletes a queue and all its messages (admin). */
    delete: (name: string, options?: CallOptions): Promise<void> => t.api(QueuesApi, options).deleteQueue({ queue: name }),
    /** Deletes every message of a queue, in every status; the queue stays (admin). */
    purge: (name: string, options?: CallOptions): Promise<PurgeResult> => t.api(QueuesApi, options).purgeQueue({ queue: name }),
    /** One page of a queue's messages, oldest first unless `order: 'desc'`, with a total up to 10,000 (view). */
    messages,
    /** Every message of a queue (matching the filters), page after page (view). */
    allMessages: (queue: string, options: Omit<ListMessagesOptions, 'cursor'> = {}): AsyncGenerator<Message> =>
      paginate((cursor) => messages(queue, { ...options, cursor })),
  };
}

export type QueuesResource = ReturnType<typeof queuesResource>;
