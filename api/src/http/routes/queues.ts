import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { createQueue, deleteQueue, getQueue, listQueues, purgeQueue, updateQueue } from '../../broker/topology.js';
import { listMessages } from '../../broker/listing.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyInteger, name, pageQuery, status } from '../schemas.js';

const queueParams = Joi.object({ queue: name.required() });
const ackTimeout = bodyInteger().min(1).max(43200);
const maxRetries = bodyInteger().min(0).max(100);
/** Hours acked messages are kept; 0 keeps none; null follows the broker's default. */
const ackedRetention = bodyInteger().min(0).max(8760).allow(null);

interface QueueSettingsBody {
  ack_timeout_seconds?: number;
  max_retries?: number;
  acked_retention_hours?: number | null;
}

export function queueRoutes(ctx: AppContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/queues',
      options: {
        ...access('admin'),
        validate: {
          payload: Joi.object({
            name: name.required(),
            topic_name: name.required(),
            ack_timeout_seconds: ackTimeout.default(30),
            max_retries: maxRetries.default(5),
            acked_retention_hours: ackedRetention.default(null),
          }),
        },
      },
      handler: async (request, h) => {
        const body = request.payload as { name: string; topic_name: string } & Required<QueueSettingsBody>;
        const queue = await createQueue(ctx.pool, {
          name: body.name,
          topicName: body.topic_name,
          ackTimeoutSeconds: body.ack_timeout_seconds,
          maxRetries: body.max_retries,
          ackedRetentionHours: body.acked_retention_hours,
        });
        return h.response(queue).code(201);
      },
    },
    {
      method: 'GET',
      path: '/api/v1/queues',
      options: access('view'),
      handler: () => listQueues(ctx.pool),
    },
    {
      method: 'GET',
      path: '/api/v1/queues/{queue}',
      options: { ...access('view'), validate: { params: queueParams } },
      handler: (request) => getQueue(ctx.pool, params(request).queue),
    },
    {
      method: 'PATCH',
      path: '/api/v1/queues/{queue}',
      options: {
        ...access('admin'),
        validate: {
          params: queueParams,
          payload: Joi.object({ ack_timeout_seconds: ackTimeout, max_retries: maxRetries, acked_retention_hours: ackedRetention })
            .min(1)
            .required(),
        },
      },
      handler: (request) => {
        const body = request.payload as QueueSettingsBody;
        return updateQueue(ctx.pool, params(request).queue, {
          ackTimeoutSeconds: body.ack_timeout_seconds,
          maxRetries: body.max_retries,
          ackedRetentionHours: body.acked_retention_hours,
        });
      },
    },
    {
      method: 'DELETE',
      path: '/api/v1/queues/{queue}',
      options: { ...access('admin'), validate: { params: queueParams } },
      handler: async (request, h) => {
        await deleteQueue(ctx.pool, params(request).queue);
        return h.response().code(204);
      },
    },
    {
      method: 'POST',
      path: '/api/v1/queues/{queue}/purge',
      options: { ...access('admin'), validate: { params: queueParams } },
      handler: (request) => purgeQueue(ctx.pool, params(request).queue),
    },
    {
      method: 'GET',
      path: '/api/v1/queues/{queue}/messages',
      options: {
        ...access('view'),
        validate: { params: queueParams, query: Joi.object({ status, ...pageQuery }) },
      },
      handler: (request) => {
        const query = request.query as { status?: string; limit: number; cursor?: string };
        return listMessages(ctx.pool, { queue: params(request).queue, ...query, defaultRetentionHours: ctx.config.ackedRetentionHours });
      },
    },
  ];
}
