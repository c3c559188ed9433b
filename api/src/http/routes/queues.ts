import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { createQueue, deleteQueue, getQueue, listQueues, purgeQueue, updateQueue } from '../../broker/topology.js';
import { listMessages, type ListQuery } from '../../broker/listing.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyBoolean, bodyInteger, headerFilter, name, pageQuery, status } from '../schemas.js';
import { filterProblem, type HeaderFilter } from '../../broker/filter.js';

const queueParams = Joi.object({ queue: name.required() });
const ackTimeout = bodyInteger().min(1).max(43200);
const maxRetries = bodyInteger().min(0).max(100);
/** Hours acked messages are kept; 0 keeps none; null follows the broker's default. */
const ackedRetention = bodyInteger().min(0).max(8760).allow(null);
const requireOrderingKey = bodyBoolean();
/** A header filter (broker/filter.ts); null takes every message. Its problem is named with its path. */
const filter = Joi.any()
  .custom((value: unknown, helpers) => {
    if (value === null) return value;
    const problem = filterProblem(value);
    return problem ? helpers.message({ custom: problem }) : value;
  });

interface QueueSettingsBody {
  ack_timeout_seconds?: number;
  max_retries?: number;
  acked_retention_hours?: number | null;
  require_ordering_key?: boolean;
  filter?: HeaderFilter | null;
}

type QueueParams = { queue: string };

export function queueRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Payload: { name: string; topic_name: string } & Required<QueueSettingsBody> }>({
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
    handler: (request) =>
      listMessages(ctx.pool, { queue: request.params.queue, ...request.query, defaultRetentionHours: ctx.config.ackedRetentionHours }),
  });
}
