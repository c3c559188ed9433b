import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { getMessage } from '../../broker/messageById.js';
import { access, readableQueuesOf } from '../access.js';
import type { AppContext } from '../context.js';
import { messageId } from '../schemas.js';

/** Reading single messages (publishing, consuming and settling have their own files). */
export function messageRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Params: { id: string } }>({
    method: 'GET',
    path: '/messages/{id}',
    options: { ...access('view|consume:{message.queue}'), validate: { params: Joi.object({ id: messageId.required() }) } },
    handler: (request) =>
      getMessage(ctx.pool, request.params.id, {
        queues: readableQueuesOf(request),
        defaultRetentionHours: ctx.config.ackedRetentionHours,
      }),
  });
}
