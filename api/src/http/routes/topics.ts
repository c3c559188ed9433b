import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { createTopic, deleteTopic, listTopics } from '../../broker/topology.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { name } from '../schemas.js';

export function topicRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Payload: { name: string } }>({
    method: 'POST',
    path: '/topics',
    options: {
      ...access('admin'),
      validate: { payload: Joi.object({ name: name.required() }) },
    },
    handler: async (request, h) => h.response(await createTopic(ctx.pool, request.payload.name)).code(201),
  });
  server.route({
    method: 'GET',
    path: '/topics',
    options: access('view'),
    handler: () => listTopics(ctx.pool),
  });
  server.route<{ Params: { topic: string } }>({
    method: 'DELETE',
    path: '/topics/{topic}',
    options: { ...access('admin'), validate: { params: Joi.object({ topic: name.required() }) } },
    handler: async (request, h) => {
      await deleteTopic(ctx.pool, request.params.topic);
      return h.response().code(204);
    },
  });
}
