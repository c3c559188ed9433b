import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { createQueue, deleteQueue, listQueues, purgeQueue } from '../../broker/topology.js';
import { listMessages } from '../../broker/listing.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyInteger, name, pageQuery, status } from '../schemas.js';

const queueParams = Joi.object({ queue: name.required() });

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
            ack_timeout_seconds: bodyInteger().min(1).max(43200).default(30),
            max_retries: bodyInteger().min(0).max(100).default(5),
          }),
        },
      },
      handler: async (request, h) => {
        const body = request.payload as { name: string; topic_name: string; ack_timeout_seconds: number; max_retries: number };
        const queue = await createQueue(ctx.pool, {
          name: body.name,
          topicName: body.topic_name,
          ackTimeoutSeconds: body.ack_timeout_seconds,
          maxRetries: body.max_retries,
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
        return listMessages(ctx.pool, { queue: params(request).queue, ...query });
      },
    },
  ];
}
