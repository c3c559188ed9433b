import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { claimMessages } from '../../broker/claim.js';
import { toMessage } from '../../broker/message.js';
import { access, consumerIdOf } from '../access.js';
import type { AppContext } from '../context.js';
import { LONG_POLL_TAG } from '../longPolls.js';
import { bodyInteger, bodyWaitSeconds, name, waitSeconds } from '../schemas.js';

/** Aborts a long poll when its client goes away, so the wait ends and nothing is claimed for nobody. */
function disconnectSignal(request: Request): AbortSignal {
  const controller = new AbortController();
  request.events.once('disconnect', () => controller.abort());
  return controller.signal;
}

async function claim(ctx: AppContext, request: Request, limit: number, wait: number) {
  const messages = await claimMessages(ctx.pool, ctx.waiters, {
    queue: params(request).queue,
    consumerId: consumerIdOf(request),
    limit,
    waitSeconds: wait,
    signal: disconnectSignal(request),
  });
  ctx.metrics.recordConsumed(messages.map((message) => message.queue_name));
  return messages;
}

export function consumeRoutes(ctx: AppContext): ServerRoute[] {
  const params = Joi.object({ queue: name.required() });
  return [
    {
      method: 'POST',
      path: '/api/v1/queues/{queue}/consume',
      options: {
        ...access('consume:{queue}'),
        tags: [LONG_POLL_TAG],
        validate: { params, query: Joi.object({ wait_seconds: waitSeconds.default(0) }) },
      },
      handler: async (request, h) => {
        const [message] = await claim(ctx, request, 1, (request.query as { wait_seconds: number }).wait_seconds);
        return message ? toMessage(message) : h.response().code(204);
      },
    },
    {
      method: 'POST',
      path: '/api/v1/queues/{queue}/receive',
      options: {
        ...access('consume:{queue}'),
        tags: [LONG_POLL_TAG],
        validate: {
          params,
          payload: Joi.object({
            max_messages: bodyInteger().min(1).max(100).default(1),
            wait_seconds: bodyWaitSeconds.default(0),
          }).allow(null),
        },
      },
      handler: async (request) => {
        const body = (request.payload ?? {}) as { max_messages?: number; wait_seconds?: number };
        const messages = await claim(ctx, request, body.max_messages ?? 1, body.wait_seconds ?? 0);
        return { messages: messages.map(toMessage) };
      },
    },
  ];
}
