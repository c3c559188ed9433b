import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { statsByQueue, statsOverview } from '../../db/queries/stats.js';
import { listDeadMessages } from '../../broker/listing.js';
import { replayOne, replayQueue } from '../../broker/deadLetters.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyInteger, messageId, name, pageQuery } from '../schemas.js';

export function dashboardRoutes(ctx: AppContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/dashboard/overview',
      options: access('view'),
      handler: () => statsOverview(ctx.pool),
    },
    {
      method: 'GET',
      path: '/api/v1/dashboard/queues',
      options: access('view'),
      handler: () => statsByQueue(ctx.pool),
    },
    {
      method: 'GET',
      path: '/api/v1/dashboard/dlq',
      options: { ...access('view'), validate: { query: Joi.object({ queue: name, ...pageQuery }) } },
      handler: (request) => {
        const query = request.query as { queue?: string; limit: number; cursor?: string };
        return listDeadMessages(ctx.pool, query);
      },
    },
    {
      method: 'POST',
      path: '/api/v1/dashboard/dlq/{id}/replay',
      options: { ...access('admin'), validate: { params: Joi.object({ id: messageId.required() }) } },
      handler: (request) => replayOne(ctx, params(request).id),
    },
    {
      method: 'POST',
      path: '/api/v1/dashboard/dlq/replay',
      options: {
        ...access('admin'),
        validate: {
          payload: Joi.object({ queue: name.required(), limit: bodyInteger().min(1).max(100_000) }).required(),
        },
      },
      handler: (request) => {
        const body = request.payload as { queue: string; limit?: number };
        return replayQueue(ctx, body.queue, body.limit);
      },
    },
  ];
}
