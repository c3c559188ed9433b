import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { createQueue, deleteQueue, getQueue, listQueues, purgeQueue, updateQueue } from '../../broker/topology.js';
import { listMessages, type ListQuery } from '../../broker/listing.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyBoolean, bodyInteger, headerFilter, name, pageQuery, status } from '../schemas.js';
import { filterProblem, type HeaderFilter } from '../../broker/filter.js';
import { attentionStored, type Fairness, type OnExpiry, type Overflow, type QueueAttention } from '../../db/queries/queue.js';

const queueParams = Joi.object({ queue: name.required() });
const ackTimeout = bodyInteger().min(1).max(43200);
const maxRetries = bodyInteger().min(0).max(100);
/** Hours acked messages are kept; 0 keeps none; null follows the broker's default. */
const ackedRetention = bodyInteger().min(0).max(8760).allow(null);
const requireOrderingKey = bodyBoolean();
/** A header filter (broker/filter.ts); null takes every message. Its problem is named with its path. */
/** Bounds of a queue (pending + unacked); null: none. Bytes are payload bytes (UTF-8), headers not counted. */
const maxMessages = bodyInteger().min(1).max(1_000_000_000).allow(null);
const maxBytes = bodyInteger().min(1).max(1_099_511_627_776).allow(null);
const overflow = Joi.string().valid('reject_publish', 'reject_copy', 'dead_letter_oldest', 'drop_oldest');
const filter = Joi.any().custom((value: unknown, helpers) => {
  if (value === null) return value;
  const problem = filterProblem(value);
  return problem ? helpers.message({ custom: problem }) : value;
});

/** Delivery gates (broker/gates.ts): one consumer at a time, and a rate shared by every instance. */
const singleActiveConsumer = bodyBoolean();
const maxDeliveriesPerSecond = bodyInteger().min(1).max(100000).allow(null);

/** Expiry and dead-letter routing (migration 0019): seconds after the publish; a topic the dead letters go to. */
const messageTtl = bodyInteger().min(1).max(1_209_600).allow(null);
const onExpiry = Joi.string().valid('dead_letter', 'drop');
const deadLetterTopic = name.allow(null);
const deadLetterKeep = bodyBoolean();
/** Priorities (migration 0021): the highest level its claims honour; null: oldest first. */
const maxPriority = bodyInteger().min(1).max(9).allow(null);
/** Fair sharing (migration 0022): claims go round the group keys; at most so many in flight per key. */
const fairness = Joi.string().valid('none', 'by_key');
const maxInFlightPerKey = bodyInteger().min(1).max(10000).allow(null);
/** When the dashboard flags the queue (migration 0024): set as a whole, a key left out at its default. */
const attention = Joi.object({
  muted: bodyBoolean(),
  oldest_pending_seconds: bodyInteger().min(1).max(2_592_000).allow(null),
  backlog_growth: bodyInteger().min(0).max(1_000_000_000).allow(null),
  dead_per_minute: Joi.number().strict().min(0).max(1_000_000).allow(null),
});
const fixedAtCreation = () =>
  Joi.any().forbidden().messages({ 'any.unknown': 'is fixed when the queue is created: delete the queue and create it again to change it' });

interface QueueSettingsBody {
  ack_timeout_seconds?: number;
  max_retries?: number;
  acked_retention_hours?: number | null;
  require_ordering_key?: boolean;
  filter?: HeaderFilter | null;
  single_active_consumer?: boolean;
  max_deliveries_per_second?: number | null;
  max_messages?: number | null;
  max_bytes?: number | null;
  overflow?: Overflow;
  message_ttl_seconds?: number | null;
  on_expiry?: OnExpiry;
  dead_letter_topic?: string | null;
  dead_letter_keep?: boolean;
  max_in_flight_per_key?: number | null;
  attention?: Partial<QueueAttention>;
}

type QueueParams = { queue: string };

export function queueRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Payload: { name: string; topic_name: string; max_priority: number | null; fairness: Fairness } & Required<QueueSettingsBody> }>({
    method: 'POST',
    path: '/queues',
    options: {
      ...access('admin'),
      validate: {
        payload: Joi.object({
          name: name.required(),
          topic_name: name.required(),
          ack_timeout_seconds: ackTimeout.default(30),
          max_retries: maxRetries.default(5),
          acked_retention_hours: ackedRetention.default(null),
          require_ordering_key: requireOrderingKey.default(false),
          filter: filter.default(null),
          single_active_consumer: singleActiveConsumer.default(false),
          max_deliveries_per_second: maxDeliveriesPerSecond.default(null),
          max_messages: maxMessages.default(null),
          max_bytes: maxBytes.default(null),
          overflow: overflow.default('reject_publish'),
          message_ttl_seconds: messageTtl.default(null),
          on_expiry: onExpiry.default('dead_letter'),
          dead_letter_topic: deadLetterTopic.default(null),
          dead_letter_keep: deadLetterKeep.default(false),
          max_priority: maxPriority.default(null),
          fairness: fairness.default('none'),
          max_in_flight_per_key: maxInFlightPerKey.default(null),
          attention: attention.default({}),
        }),
      },
    },
    handler: async (request, h) => {
      const body = request.payload;
      const queue = await createQueue(ctx.pool, {
        name: body.name,
        topicName: body.topic_name,
        ackTimeoutSeconds: body.ack_timeout_seconds,
        maxRetries: body.max_retries,
        ackedRetentionHours: body.acked_retention_hours,
        requireOrderingKey: body.require_ordering_key,
        filter: body.filter,
        singleActiveConsumer: body.single_active_consumer,
        maxDeliveriesPerSecond: body.max_deliveries_per_second,
        maxMessages: body.max_messages,
        maxBytes: body.max_bytes,
        overflow: body.overflow,
        messageTtlSeconds: body.message_ttl_seconds,
        onExpiry: body.on_expiry,
        deadLetterTopic: body.dead_letter_topic,
        deadLetterKeep: body.dead_letter_keep,
        maxPriority: body.max_priority,
        fairness: body.fairness,
        maxInFlightPerKey: body.max_in_flight_per_key,
        attention: attentionStored(body.attention),
      });
      return h.response(queue).code(201);
    },
  });
  server.route({
    method: 'GET',
    path: '/queues',
    options: access('view'),
    handler: () => listQueues(ctx.pool),
  });
  server.route<{ Params: QueueParams }>({
    method: 'GET',
    path: '/queues/{queue}',
    options: { ...access('view'), validate: { params: queueParams } },
    handler: (request) => getQueue(ctx.pool, request.params.queue),
  });
  server.route<{ Params: QueueParams; Payload: QueueSettingsBody }>({
    method: 'PATCH',
    path: '/queues/{queue}',
    options: {
      ...access('admin'),
      validate: {
        params: queueParams,
        payload: Joi.object({
          ack_timeout_seconds: ackTimeout,
          max_retries: maxRetries,
          acked_retention_hours: ackedRetention,
          require_ordering_key: requireOrderingKey,
          filter,
          single_active_consumer: singleActiveConsumer,
          max_deliveries_per_second: maxDeliveriesPerSecond,
          max_messages: maxMessages,
          max_bytes: maxBytes,
          overflow,
          message_ttl_seconds: messageTtl,
          on_expiry: onExpiry,
          dead_letter_topic: deadLetterTopic,
          dead_letter_keep: deadLetterKeep,
          max_in_flight_per_key: maxInFlightPerKey,
          attention,
          max_priority: fixedAtCreation(),
          fairness: fixedAtCreation(),
        })
          .min(1)
          .required(),
      },
    },
    handler: (request) =>
      updateQueue(ctx.pool, request.params.queue, {
        ackTimeoutSeconds: request.payload.ack_timeout_seconds,
        maxRetries: request.payload.max_retries,
        ackedRetentionHours: request.payload.acked_retention_hours,
        requireOrderingKey: request.payload.require_ordering_key,
        filter: request.payload.filter,
        singleActiveConsumer: request.payload.single_active_consumer,
        maxDeliveriesPerSecond: request.payload.max_deliveries_per_second,
        maxMessages: request.payload.max_messages,
        maxBytes: request.payload.max_bytes,
        overflow: request.payload.overflow,
        messageTtlSeconds: request.payload.message_ttl_seconds,
        onExpiry: request.payload.on_expiry,
        deadLetterTopic: request.payload.dead_letter_topic,
        deadLetterKeep: request.payload.dead_letter_keep,
        maxInFlightPerKey: request.payload.max_in_flight_per_key,
        attention: request.payload.attention === undefined ? undefined : attentionStored(request.payload.attention),
      }),
  });
  server.route<{ Params: QueueParams }>({
    method: 'DELETE',
    path: '/queues/{queue}',
    options: { ...access('admin'), validate: { params: queueParams } },
    handler: async (request, h) => {
      await deleteQueue(ctx.pool, request.params.queue);
      return h.response().code(204);
    },
  });
  server.route<{ Params: QueueParams }>({
    method: 'POST',
    path: '/queues/{queue}/purge',
    options: { ...access('admin'), validate: { params: queueParams } },
    handler: (request) => purgeQueue(ctx.pool, request.params.queue),
  });
  server.route<{ Params: QueueParams; Query: Omit<ListQuery, 'queue' | 'defaultRetentionHours'> }>({
    method: 'GET',
    path: '/queues/{queue}/messages',
    options: {
      ...access('view'),
      validate: {
        params: queueParams,
        query: Joi.object({
          status,
          order: Joi.string().valid('asc', 'desc').default('asc'),
          header: headerFilter,
          ...pageQuery,
        }),
      },
    },
    handler: (request) => listMessages(ctx.pool, { queue: request.params.queue, ...request.query, defaultRetentionHours: ctx.config.ackedRetentionHours }),
  });
}
