import type { Request, Server } from '@hapi/hapi';
import HapiPino from 'hapi-pino';
import type { Logger } from '../logging.js';
import { CLIENT_ERROR_TAG, logClientErrors } from './clientErrors.js';

const routeOf = (request: Request) => (request.route.path === '/{p*}' ? 'unmatched' : request.route.path);

/** One line per request: request id, method, route template, path (no query), status, duration. */
export async function registerRequestLogging(server: Server, logger: Logger): Promise<void> {
  logClientErrors(server, logger);
  await server.register({
    plugin: HapiPino,
    options: {
      instance: logger,
      logRequestStart: false,
      logPayload: false,
      logQueryParams: false,
      logPathParams: false,
      ignorePaths: ['/actuator/health'],
      // Parser errors carry the raw request: logClientErrors logs them, without it. (hapi-pino
      // reads an object { log, request }; its typings say object[].)
      ignoredEventTags: { log: [CLIENT_ERROR_TAG] } as unknown as object[],
      getChildBindings: (request: Request) => ({ req_id: request.info.id }),
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      customRequestCompleteMessage: (request: Request, responseTime: number) =>
        `${request.method.toUpperCase()} ${routeOf(request)} ${request.raw.res.statusCode} ${responseTime}ms`,
    },
  });
}

/** Request durations by route template, method and status, for Prometheus. */
export function recordRequestDurations(server: Server, observe: (labels: Record<string, string>, seconds: number) => void): void {
  server.events.on('response', (request) => {
    const info = request.info;
    const end = info.completed || info.responded;
    if (!end) return;
    observe({ route: routeOf(request), method: request.method.toUpperCase(), status: String(request.raw.res.statusCode) }, (end - info.received) / 1000);
  });
}
