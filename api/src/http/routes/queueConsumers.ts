import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { queueExists } from '../../db/queries/queue.js';
import { queueConsumerList, queueHasPush } from '../../db/queries/queueConsumers.js';
import { NotFoundError } from '../../errors.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { name } from '../schemas.js';

/** GET /dashboard/queues/{queue}/consumers: who consumes one queue, for its page in the dashboard. */
export function queueConsumerRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Params: { queue: string } }>({
    method: 'GET',
    path: '/dashboard/queues/{queue}/consumers',
    options: { ...access('view'), validate: { params: Joi.object({ queue: name.required() }) } },
    handler: async (request) => {
      const queue = request.params.queue;
      const [exists, consumers, push] = await Promise.all([
        queueExists(ctx.dashboardPool, queue),
        queueConsumerList(ctx.dashboardPool, queue),
        queueHasPush(ctx.dashboardPool, queue),
      ]);
      if (!exists) throw new NotFoundError('queue_not_found', `No queue found with the name ${queue}`);
      return {
        queue,
        push_endpoint: push,
        consumers: consumers.map((row) => ({ ...row, last_seen_at: row.last_seen_at?.toISOString() ?? null })),
      };
    },
  });
}
