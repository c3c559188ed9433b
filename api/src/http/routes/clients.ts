import Joi from 'joi';
import type { Server } from '@hapi/hapi';
import { createClient, listClients, revokeClient, rotateClient, updateClient } from '../../auth/clients.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';
import { name } from '../schemas.js';

/** The scopes of a client, on registration and on change alike; each is checked in auth/clients.ts. */
const scopes = Joi.array().items(Joi.string().max(200)).min(1).max(100).required();

export function clientRoutes(server: Server, ctx: AppContext): void {
  const pathParams = Joi.object({ name: name.required() });
  server.route<{ Payload: { name: string; scopes: string[] } }>({
    method: 'POST',
    path: '/clients',
    options: {
      ...access('admin'),
      validate: {
        payload: Joi.object({
          name: name.required(),
          scopes,
        }).required(),
      },
    },
    handler: async (request, h) => h.response(await createClient(ctx.pool, request.payload.name, request.payload.scopes)).code(201),
  });
  server.route({
    method: 'GET',
    path: '/clients',
    options: access('admin'),
    handler: () => listClients(ctx.pool),
  });
  server.route<{ Params: { name: string } }>({
    method: 'POST',
    path: '/clients/{name}/rotate',
    options: { ...access('admin'), validate: { params: pathParams } },
    handler: async (request) => {
      const rotated = await rotateClient(ctx.pool, request.params.name);
      // This instance forgets the old key before it answers; the others when the notification arrives.
      ctx.credentials.invalidate();
      return rotated;
    },
  });
  server.route<{ Params: { name: string }; Payload: { scopes: string[] } }>({
    method: 'PATCH',
    path: '/clients/{name}',
    options: { ...access('admin'), validate: { params: pathParams, payload: Joi.object({ scopes }).required() } },
    handler: async (request) => {
      const updated = await updateClient(ctx.pool, request.params.name, request.payload.scopes);
      // Removed scopes stop here before the answer; elsewhere when the notification arrives.
      ctx.credentials.invalidate();
      return updated;
    },
  });
  server.route<{ Params: { name: string } }>({
    method: 'DELETE',
    path: '/clients/{name}',
    options: { ...access('admin'), validate: { params: pathParams } },
    handler: async (request, h) => {
      await revokeClient(ctx.pool, request.params.name);
      ctx.credentials.invalidate();
      return h.response().code(204);
    },
  });
}
