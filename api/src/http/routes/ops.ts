import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ServerRoute } from '@hapi/hapi';
import { UnavailableError } from '../../errors.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/errors.js';
import { DatabaseHealth } from '../../db/health.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';

export const OPENAPI_PATH = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));
/** The streaming protocol's contract, beside the HTTP one (whose schemas it refers to). */
export const ASYNCAPI_PATH = fileURLToPath(new URL('../../../../asyncapi.yaml', import.meta.url));

export function opsRoutes(ctx: AppContext): ServerRoute[] {
  const openapi = readFileSync(OPENAPI_PATH, 'utf8');
  const asyncapi = readFileSync(ASYNCAPI_PATH, 'utf8');
  const health = new DatabaseHealth(ctx.pool.options);
  return [
    {
      method: 'GET',
      path: '/actuator/health',
      options: access('none'),
      handler: async () => {
        if (!(await health.isUp())) throw new UnavailableError('Database unreachable', DATABASE_RETRY_AFTER_SECONDS);
        return { status: 'UP' };
      },
    },
    {
      method: 'GET',
      path: '/actuator/info',
      options: access('none'),
      handler: () => ({
        name: 'miniqueue',
        version: ctx.version,
        commit: ctx.config.commit,
        github_sign_in: ctx.config.github !== undefined,
      }),
    },
    {
      method: 'GET',
      path: '/actuator/prometheus',
      options: access('metrics'),
      handler: async (_request, h) => {
        const { contentType, body } = await ctx.metrics.render();
        return h.response(body).type(contentType);
      },
    },
    {
      method: 'GET',
      path: '/openapi.yaml',
      options: access('none'),
      handler: (_request, h) => h.response(openapi).type('application/yaml'),
    },
    {
      method: 'GET',
      path: '/asyncapi.yaml',
      options: access('none'),
      handler: (_request, h) => h.response(asyncapi).type('application/yaml'),
    },
  ];
}
