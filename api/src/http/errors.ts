import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { BrokerError, RateLimitedError, UnavailableError, type FieldError } from '../errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.js';

export interface ErrorBody {
  status: number;
  message: string;
  errors: FieldError[] | null;
  response_body: null;
}

/** Headers of hapi's own errors worth passing on (auth challenge, allowed methods, back-off). */
const KEPT_HEADERS = ['WWW-Authenticate', 'Retry-After', 'Allow'];

function describe(error: Boom.Boom, request: Request): { status: number; message: string; errors: FieldError[] | null } {
  if (error instanceof BrokerError) return { status: error.status, message: error.message, errors: error.errors };
  if (isDatabaseUnavailable(error)) return { status: 503, message: 'Database unavailable, try again shortly', errors: null };
  const status = error.output.statusCode;
  if (status >= 500) return { status, message: 'Internal server error', errors: null };
  if (status === 404) return { status, message: `No route for ${request.method.toUpperCase()} ${request.path}`, errors: null };
  if (status === 413) return { status, message: 'Request body is larger than this route accepts', errors: null };
  if (status === 415) return { status, message: 'Request bodies must be JSON: send Content-Type: application/json', errors: null };
  if (status === 403) return { status, message: insufficientScopeMessage(request), errors: null };
  return { status, message: String(error.output.payload.message || error.output.payload.error), errors: null };
}

function insufficientScopeMessage(request: Request): string {
  const required = request.route.settings.plugins?.miniqueue?.scope;
  if (!required) return 'Your credential does not allow this';
  const scope = required.replace(/\{(\w+)\}/g, (_, name: string) => String((request.params as Record<string, unknown>)[name] ?? name));
  return `This needs the scope ${scope} (or admin)`;
}

/** Every failure, from every route and from hapi itself, leaves in the contract's one shape. */
export function registerErrorShape(server: Server, logError: (request: Request, error: unknown) => void): void {
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!Boom.isBoom(response)) return h.continue;
    const { status, message, errors } = describe(response, request);
    if (status >= 500 && status !== 503) logError(request, response);
    const body: ErrorBody = { status, message, errors, response_body: null };
    const reply = h.response(body).code(status);
    for (const name of KEPT_HEADERS) {
      const value = response.output.headers[name];
      if (value !== undefined) reply.header(name, String(value));
    }
    const retryAfter = retryAfterOf(response);
    if (retryAfter !== undefined) reply.header('Retry-After', String(retryAfter));
    return reply;
  });
}

/** Seconds after which a retry may succeed: a rate limit's own, or a database that went away. */
function retryAfterOf(error: Boom.Boom): number | undefined {
  if (error instanceof RateLimitedError || error instanceof UnavailableError) return error.retryAfterSeconds;
  return isDatabaseUnavailable(error) ? DATABASE_RETRY_AFTER_SECONDS : undefined;
}
