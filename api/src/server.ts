import { readFileSync } from 'node:fs';
import Hapi from '@hapi/hapi';
import Inert from '@hapi/inert';
import type { Config } from './config.js';
import type { Pool } from './db/pool.js';
import { CredentialResolver } from './auth/credentials.js';
import { registerAuth } from './auth/scheme.js';
import { resolveSession } from './auth/sessions.js';
import { registerGithubSignIn } from './auth/github.js';
import { corsOptions } from './http/cors.js';
import { SECURITY_HEADERS, registerSecurityHeaders } from './http/securityHeaders.js';
import { RateLimits } from './auth/rateLimits.js';
import { registerRateLimits } from './http/rateLimit.js';
import type { NotificationBus } from './realtime/bus.js';
import { serviceOf } from './lifecycle/lifecycle.js';
import type { BrokerCore } from './brokerCore.js';
import type { Service } from './lifecycle/service.js';
import { createLogger, type Logger } from './logging.js';
import { recordRequestDurations, registerRequestLogging } from './http/logging.js';
import type { AppContext } from './http/context.js';
import { registerErrorShape } from './http/errors.js';
import { VALIDATION_OPTIONS, failAction } from './http/validationFailures.js';
import { refuseOversizedBodies } from './http/bodyLimit.js';
import { ConnectionDrain } from './http/drain.js';
import { refuseUnsupportedBodies } from './http/bodyType.js';
import { refuseMisshapenBodies } from './http/bodyShape.js';
import { createListener } from './http/listener.js';
import { limitLongPolls } from './http/longPolls.js';
import { LongPollCredentials } from './http/longPollCredentials.js';
import { answerWrongMethods } from './http/methodNotAllowed.js';
import { API_PREFIX, apiPlugin } from './http/api.js';
import { opsRoutes } from './http/routes/ops.js';
import { dashboardStaticRoutes } from './http/routes/dashboardStatic.js';
import { swaggerUiRoutes } from './http/routes/swaggerUi.js';
import { realtimePlugin } from './realtime/plugin.js';

const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;

export interface ServerDeps {
  config: Config;
  pool: Pool;
  bus: NotificationBus;
  /** The broker's state machine and what listens to its commits (brokerCore.ts); started by the caller. */
  core: BrokerCore;
  /** Defaults to JSON lines on stdout at config.logLevel. */
  logger?: Logger;
  /** false: the HTTP service initializes the server without listening (tests inject into it). */
  listen?: boolean;
}

export interface Broker {
  server: Hapi.Server;
  context: AppContext;
  core: BrokerCore;
  logger: Logger;
  /** What the HTTP side runs in the background, in the order to start them, after the core's and before the HTTP server. */
  services: Service[];
  /**
   * The HTTP server, with the WebSockets, which start and stop with it. Its stop stops taking
   * connections, answers what arrives on open ones with `Connection: close`, ends long polls, and
   * waits for in-flight requests (all up to the shutdown timeout).
   */
  http: Service;
}

/** Names in paths are lowercased before auth, so `publish:{params.topic}` sees what the handler sees. */
const NAME_PARAMS = ['topic', 'queue', 'name'];

/** Builds the HTTP server (routes, WebSockets) on a broker core; never listens (tests inject into it). */
export async function createServer(deps: ServerDeps): Promise<Broker> {
  const { config, pool, bus } = deps;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const logError = (message: string, error: unknown) => logger.error({ err: error }, message);
  const server = Hapi.server({
    port: config.port,
    host: config.host,
    listener: createListener(config),
    router: { stripTrailingSlash: true },
    routes: {
      validate: { failAction, options: VALIDATION_OPTIONS },
      // Bodies are JSON wherever the contract takes one: anything else is 415 from the headers,
      // before a byte of it is read (an octet-stream body would otherwise become a Buffer that joi
      // reports byte by byte). hapi's own read timeout (10 s) is off: the listener's request
      // timeout is the one bound on receiving a body.
      payload: { maxBytes: 64 * 1024, allow: 'application/json', timeout: false },
      response: { emptyStatusCode: 204 },
      cors: corsOptions(config),
      security: SECURITY_HEADERS,
    },
  });
  const { core } = deps;
  const credentials = new CredentialResolver(
    pool,
    (error) => logError('last_used_at update failed', error),
    (tokenHash) => resolveSession(pool, config, tokenHash),
  );
  const longPollCredentials = new LongPollCredentials({ bus, reresolve: (kind, hash) => credentials.resolveHash(kind, hash) });
  // One set of buckets for HTTP requests and WebSocket handshakes alike.
  const rateLimits = new RateLimits(config.rateLimit);
  const context: AppContext = {
    config,
    pool,
    bus,
    credentials,
    longPollCredentials,
    rateLimits,
    version: VERSION,
    dashboardPool: core.dashboardPool,
    waiters: core.waiters,
    changes: core.changes,
    notifications: core.notifications,
    publisher: core.publisher,
    claimer: core.claimer,
    settler: core.settler,
    metrics: core.metrics,
    rates: core.rates,
    instanceId: core.instanceId,
    pushTargets: core.pushTargets,
  };
  const drain = new ConnectionDrain(server.listener);
  const invalidate = () => credentials.invalidate();
  bus.on('auth', invalidate);
  bus.on('reset', invalidate);

  server.ext('onPreAuth', (request, h) => {
    for (const key of NAME_PARAMS) {
      const value = request.params[key];
      if (typeof value === 'string') request.params[key] = value.toLowerCase();
    }
    return h.continue;
  });
  // Before the error shape, which gives its 405 the contract's body.
  answerWrongMethods(server);
  registerErrorShape(server, (request, error) => logError(`${request.method.toUpperCase()} ${request.path} failed`, error));
  refuseOversizedBodies(server);
  refuseUnsupportedBodies(server);
  refuseMisshapenBodies(server);
  registerAuth(server, credentials);
  await registerGithubSignIn(server, config);
  registerRateLimits(server, rateLimits);
  limitLongPolls(server, config.longPollsPerCredential);
  // After registerErrorShape: its onPreResponse replaces error responses, which must get these too.
  registerSecurityHeaders(server);
  recordRequestDurations(server, (labels, seconds) => core.metrics.httpDuration.observe(labels, seconds));
  await registerRequestLogging(server, logger);

  await server.register(Inert);
  // /ws/consume and /ws/monitor: attached to the listener on start, closed on stop.
  await server.register({ plugin: realtimePlugin, options: { context, log: logError } });

  await server.register({ plugin: apiPlugin, options: context }, { routes: { prefix: API_PREFIX } });
  server.route([...opsRoutes(context), ...swaggerUiRoutes(), ...dashboardStaticRoutes()]);

  const http = serviceOf('http-server', {
    start: () => (deps.listen === false ? server.initialize() : server.start()),
    async stop() {
      const deadline = Date.now() + config.shutdownTimeoutSeconds * 1000;
      if (server.info.started) drain.start();
      core.waiters.close();
      if (server.info.started) await drain.finished(deadline);
      await server.stop({ timeout: Math.max(1, deadline - Date.now()) });
      bus.off('auth', invalidate);
      bus.off('reset', invalidate);
    },
  });
  return { server, context, core, logger, services: [longPollCredentials], http };
}
