import Joi from 'joi';
import type { Request, ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { claimMessages } from '../../broker/claim.js';
import { toMessage } from '../../broker/message.js';
import { messageUnclaim } from '../../db/queries/messageClaim.js';
import type { MessageRow } from '../../db/queries/messageRow.js';
import { access, consumerOf } from '../access.js';
import type { AppContext } from '../context.js';
import { LONG_POLL_TAG } from '../longPolls.js';
import { bodyInteger, bodyWaitSeconds, name, waitSeconds } from '../schemas.js';

/**
 * Aborted when the client's connection closes before its answer was sent. hapi's own 'disconnect'
 * event fires only while a request body is still arriving; a client that gives up during a long
 * poll closes after a complete request, which only the response's 'close' tells.
 */
function goneSignal(request: Request): AbortSignal {
  const controller = new AbortController();
  const response = request.raw.res;
  if (response.destroyed) controller.abort();
  else response.once('close', () => controller.abort());
  return controller.signal;
}

/** A claim whose answer never reached its client goes back at once, its retry count untouched. */
function unclaimIfUndelivered(ctx: AppContext, request: Request, holder: string, rows: MessageRow[]): void {
  if (rows.length === 0) return;
  const response = request.raw.res;
  const putBack = () => {
    if (response.writableFinished) return;
    messageUnclaim(ctx.pool, rows.map((row) => row.id), holder).catch((error) =>
      request.log(['error'], { message: 'could not put back an undelivered claim', error }),
    );
  };
  if (response.destroyed) putBack();
  else response.once('close', putBack);
}

async function claim(ctx: AppContext, request: Request, limit: number, wait: number) {
  const { holder, consumerId } = consumerOf(request);
  const messages = await claimMessages(ctx, {
    queue: params(request).queue,
    holder,
    consumerId,
    limit,
    waitSeconds: wait,
    signal: goneSignal(request),
  });
  unclaimIfUndelivered(ctx, request, holder, messages);
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
