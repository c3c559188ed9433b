import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Server, ServerRoute } from '@hapi/hapi';
import { UnavailableError } from '../../errors.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/errors.js';
import { DatabaseHealth, type DatabaseState } from '../../db/health.js';
import { readinessOf } from '../../lifecycle/readiness.js';
import type { ServiceHealth } from '../../lifecycle/service.js';
import { realtimeHub } from '../../realtime/plugin.js';
import { access } from '../access.js';
import type { AppContext } from '../context.js';

declare module '@hapi/hapi' {
  interface ServerApplicationState {
    /** Every service the instance runs (set by whoever starts them): what /actuator/health reads. */
    serviceHealth?: () => ServiceHealth[];
  }
}

/** Tells /actuator/health where the health of the instance's services comes from. */
export function reportServiceHealth(server: Server, health: () => ServiceHealth[]): void {
  server.app.serviceHealth = health;
}

/** Why the database keeps this instance from serving (null: it does not). */
function databaseProblem(state: DatabaseState, database: DatabaseHealth): string | null {
  if (state === 'unreachable') return 'Database unreachable';
  if (state === 'not-committing') return `Database does not confirm commits within ${database.commitTimeoutMs / 1000} s`;
  return null;
}

/**
 * UP, DEGRADED (serving; background services named, never their errors: anyone may ask), or DOWN
 * as 503 in the error shape: the database does not answer or does not commit a write in time, a
 * connection the instance serves with is lost, or it is stopping. See db/health.ts for how the
 * database is asked.
 */
async function healthOf(server: Server, database: DatabaseHealth) {
  const problem = databaseProblem(await database.state(), database);
  if (problem) throw new UnavailableError(problem, DATABASE_RETRY_AFTER_SECONDS);
  // The WebSockets start and stop with this server, outside the services its owner holds.
  const readiness = readinessOf([...(server.app.serviceHealth?.() ?? []), realtimeHub(server).health()]);
  if (readiness.status !== 'DOWN') return readiness;
  const names = readiness.services.join(', ');
  if (readiness.why === 'stopping') throw new UnavailableError(`Not serving: ${names} not running`, undefined, 'shutting_down');
  throw new UnavailableError(`Not serving: ${names} without a database connection, reconnecting`, DATABASE_RETRY_AFTER_SECONDS);
}

export const OPENAPI_PATH = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));
/** The streaming protocol's contract, beside the HTTP one (whose schemas it refers to). */
export const ASYNCAPI_PATH = fileURLToPath(new URL('../../../../asyncapi.yaml', import.meta.url));

export function opsRoutes(ctx: AppContext): ServerRoute[] {
  const openapi = readFileSync(OPENAPI_PATH, 'utf8');
  const asyncapi = readFileSync(ASYNCAPI_PATH, 'utf8');
  const health = new DatabaseHealth(ctx.pool);
  return [
    {
      method: 'GET',
      path: '/actuator/health',
      options: access('none'),
      handler: (request) => healthOf(request.server, health),
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
