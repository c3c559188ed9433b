import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { statsOverview } from '../../db/queries/stats.js';
import { queueStatsWithActivity, rateSeries } from '../../stats/rateSeries.js';
import { listDeadMessages } from '../../broker/listing.js';
import { deleteOne, replayOne, replayQueue } from '../../broker/deadLetters.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyInteger, messageId, name, pageQuery } from '../schemas.js';

const idParams = Joi.object({ id: messageId.required() });

export function dashboardRoutes(server: Server, ctx: AppContext): void {
  server.route({
    method: 'GET',
    path: '/dashboard/overview',
    options: access('view'),
    handler: () => statsOverview(ctx.pool),
  });
  server.route({
    method: 'GET',
    path: '/dashboard/queues',
    options: access('view'),
    handler: () => queueStatsWithActivity(ctx.pool),
  });
  server.route<{ Query: { queue?: string; window_seconds: number; resolution_seconds: number } }>({
    method: 'GET',
    path: '/dashboard/rates',
    options: {
      ...access('view'),
      validate: {
        query: Joi.object({
          queue: name,
          window_seconds: Joi.number().integer().min(5).max(86_400).default(3_600),
          resolution_seconds: Joi.number().integer().min(5).max(3_600).multiple(5).default(5),
        }),
      },
    },
    handler: (request) =>
      rateSeries(ctx.pool, {
        queue: request.query.queue,
        windowSeconds: request.query.window_seconds,
        resolutionSeconds: request.query.resolution_seconds,
      }),
  });
  server.route<{ Query: { queue?: string; limit: number; cursor?: string } }>({
    method: 'GET',
    path: '/dashboard/dlq',
    options: { ...access('view'), validate: { query: Joi.object({ queue: name, ...pageQuery }) } },
    handler: (request) => listDeadMessages(ctx.pool, request.query),
  });
  server.route<{ Params: { id: string } }>({
    method: 'DELETE',
    path: '/dashboard/dlq/{id}',
    options: { ...access('admin'), validate: { params: idParams } },
    handler: async (request, h) => {
      await deleteOne(ctx.pool, request.params.id);
      return h.response().code(204);
    },
  });
  server.route<{ Params: { id: string } }>({
    method: 'POST',
    path: '/dashboard/dlq/{id}/replay',
    options: { ...access('admin'), validate: { params: idParams } },
    handler: (request) => replayOne(ctx, request.params.id),
  });
  server.route<{ Payload: { queue: string; limit?: number } }>({
    method: 'POST',
    path: '/dashboard/dlq/replay',
    options: {
      ...access('admin'),
      validate: {
        payload: Joi.object({ queue: name.required(), limit: bodyInteger().min(1).max(100_000) }).required(),
      },
    },
    handler: (request) => replayQueue(ctx, request.payload.queue, request.payload.limit),
  });
}
