import Joi from 'joi';
import type { ServerRoute } from '@hapi/hapi';
import { params } from '../hapi-augment.js';
import { createClient, listClients, revokeClient, rotateClient } from '../../auth/clients.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { name } from '../schemas.js';

export function clientRoutes(ctx: AppContext): ServerRoute[] {
  const pathParams = Joi.object({ name: name.required() });
  return [
    {
      method: 'POST',
      path: '/api/v1/clients',
      options: {
        ...access('admin'),
        validate: {
          payload: Joi.object({
            name: name.required(),
            scopes: Joi.array().items(Joi.string().max(200)).min(1).max(100).required(),
          }).required(),
        },
      },
      handler: async (request, h) => {
        const body = request.payload as { name: string; scopes: string[] };
        return h.response(await createClient(ctx.pool, body.name, body.scopes)).code(201);
      },
    },
    {
      method: 'GET',
      path: '/api/v1/clients',
      options: access('admin'),
      handler: () => listClients(ctx.pool),
    },
    {
      method: 'POST',
      path: '/api/v1/clients/{name}/rotate',
      options: { ...access('admin'), validate: { params: pathParams } },
      handler: (request) => rotateClient(ctx.pool, params(request).name),
    },
    {
      method: 'DELETE',
      path: '/api/v1/clients/{name}',
      options: { ...access('admin'), validate: { params: pathParams } },
      handler: async (request, h) => {
        await revokeClient(ctx.pool, params(request).name);
        return h.response().code(204);
      },
    },
  ];
}
