import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { clearPushEndpoint, getPushEndpoint, rotatePushSecret, setPushEndpoint } from '../../broker/pushEndpoints.js';
import { hasScope } from '../../auth/scopes.js';
import { redactedUrl } from '../../push/redactedUrl.js';
import { access, principalOf } from '../access.js';
import type { AppContext } from '../context.js';
import { bodyInteger, name, storableText } from '../schemas.js';

const queueParams = Joi.object({ queue: name.required() });
type QueueParams = { queue: string };

interface PushBody {
  url: string;
  max_in_flight: number;
  timeout_seconds: number;
}

export function pushRoutes(server: Server, ctx: AppContext): void {
  server.route<{ Params: QueueParams; Payload: PushBody }>({
    method: 'PUT',
    path: '/queues/{queue}/push',
    options: {
      ...access('admin'),
      validate: {
        params: queueParams,
        payload: Joi.object({
          // NUL is refused here, as in every text the broker stores (PostgreSQL cannot hold it).
          url: storableText().max(2048).required(),
          max_in_flight: bodyInteger().min(1).max(100).default(4),
          timeout_seconds: bodyInteger().min(1).max(60).default(10),
        }).required(),
      },
    },
    handler: async (request, h) => {
      const body = request.payload;
      const { created, endpoint } = await setPushEndpoint(ctx, request.params.queue, {
        url: body.url,
        maxInFlight: body.max_in_flight,
        timeoutSeconds: body.timeout_seconds,
      });
      return h.response(endpoint).code(created ? 201 : 200);
    },
  });
  server.route<{ Params: QueueParams }>({
    method: 'GET',
    path: '/queues/{queue}/push',
    options: { ...access('view'), validate: { params: queueParams } },
    handler: async (request) => {
      const endpoint = await getPushEndpoint(ctx, request.params.queue);
      return hasScope(principalOf(request), 'admin') ? endpoint : { ...endpoint, url: redactedUrl(endpoint.url) };
    },
  });
  server.route<{ Params: QueueParams }>({
    method: 'DELETE',
    path: '/queues/{queue}/push',
    options: { ...access('admin'), validate: { params: queueParams } },
    handler: async (request, h) => {
      await clearPushEndpoint(ctx, request.params.queue);
      return h.response().code(204);
    },
  });
  server.route<{ Params: QueueParams }>({
    method: 'POST',
    path: '/queues/{queue}/push/rotate-secret',
    options: { ...access('admin'), validate: { params: queueParams } },
    handler: (request) => rotatePushSecret(ctx, request.params.queue),
  });
}
