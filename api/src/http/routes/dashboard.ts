import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { statsOverview } from '../../db/queries/stats.js';
import { queueStatsWithActivity, rateSeries } from '../../stats/rateSeries.js';
import { listDeadMessages } from '../../broker/listing.js';
import { deleteMatching, deleteOne, deleteSelection, replayMatching, replayOne, replaySelection } from '../../broker/deadLetters.js';
import type { DeadSelector } from '../../db/queries/messageDead.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyInteger, deadReason, messageId, name, pageQuery } from '../schemas.js';

const idParams = Joi.object({ id: messageId.required() });

export function dashboardRoutes(server: Server, ctx: AppContext): void {
  server.route({
    method: 'GET',
    path: '/dashboard/overview',
    options: access('view'),
    handler: () => statsOverview(ctx.dashboardPool),
  });
  server.route({
    method: 'GET',
    path: '/dashboard/queues',
    options: access('view'),
    handler: () => queueStatsWithActivity(ctx.dashboardPool),
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
      rateSeries(ctx.dashboardPool, {
        queue: request.query.queue,
        windowSeconds: request.query.window_seconds,
        resolutionSeconds: request.query.resolution_seconds,
      }),
  });
  server.route<{ Query: { queue?: string; reason?: string; limit: number; cursor?: string } }>({
    method: 'GET',
    path: '/dashboard/dlq',
    options: { ...access('view'), validate: { query: Joi.object({ queue: name, reason: deadReason, ...pageQuery }) } },
    handler: (request) => listDeadMessages(ctx.dashboardPool, request.query),
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
  const filter = {
    queue: name,
    reason: deadReason,
    limit: bodyInteger().min(1).max(100_000),
  };
  server.route<{ Payload: DeadSelector & { limit?: number } }>({
    method: 'POST',
    path: '/dashboard/dlq/replay',
    options: { ...access('admin'), validate: { payload: Joi.object(filter).required() } },
    handler: (request) => replayMatching(ctx, request.payload, request.payload.limit),
  });
  server.route<{ Payload: DeadSelector & { limit?: number } }>({
    method: 'POST',
    path: '/dashboard/dlq/delete',
    options: { ...access('admin'), validate: { payload: Joi.object(filter).required() } },
    handler: (request) => deleteMatching(ctx, request.payload, request.payload.limit),
  });
  const selection = Joi.object({ ids: Joi.array().items(messageId.required()).min(1).max(500).required() }).required();
  server.route<{ Payload: { ids: string[] } }>({
    method: 'POST',
    path: '/dashboard/dlq/batch-replay',
    options: { ...access('admin'), validate: { payload: selection } },
    handler: (request) => replaySelection(ctx, request.payload.ids),
  });
  server.route<{ Payload: { ids: string[] } }>({
    method: 'POST',
    path: '/dashboard/dlq/batch-delete',
    options: { ...access('admin'), validate: { payload: selection } },
    handler: (request) => deleteSelection(ctx, request.payload.ids),
  });
}
