import {
  QueuesApi,
  type HeaderFilter,
  type ListQueueMessagesOrderEnum,
  type Message,
  type MessagePage,
  type MessageStatus,
  type PurgeResult,
  type Queue,
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
