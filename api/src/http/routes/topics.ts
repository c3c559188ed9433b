import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { createTopic, deleteTopic, listTopics } from '../../broker/topology.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { name } from '../schemas.js';

export function topicRoutes(ctx: AppContext): ServerRoute[] {
  return [
    {
      method: 'POST',
      path: '/api/v1/topics',
      options: {
        ...access('admin'),
        validate: { payload: Joi.object({ name: name.required() }) },
      },
      handler: async (request, h) =>
        h.response(await createTopic(ctx.pool, (request.payload as { name: string }).name)).code(201),
    },
    {
      method: 'GET',
      path: '/api/v1/topics',
      options: access('view'),
      handler: () => listTopics(ctx.pool),
    },
    {
      method: 'DELETE',
      path: '/api/v1/topics/{topic}',
      options: { ...access('admin'), validate: { params: Joi.object({ topic: name.required() }) } },
      handler: async (request, h) => {
        await deleteTopic(ctx.pool, params(request).topic);
        return h.response().code(204);
      },
    },
  ];
}
