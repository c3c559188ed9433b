import Boom from '@hapi/boom';
import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { BrokerError, ForbiddenError, RateLimitedError, UnavailableError, type ErrorCode, type FieldError } from '../errors.js';
import { codeForStatus } from '../errorCodes.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.js';

export interface ErrorBody {
  status: number;
  code: ErrorCode;
  message: string;
  errors: FieldError[] | null;
  /** With `scope_required`, when one scope is known to allow the request. */
  scope?: string;
  response_body: null;
}

type Described = Omit<ErrorBody, 'response_body'>;

/** Headers of hapi's own errors worth passing on (auth challenge, allowed methods, back-off). */
const KEPT_HEADERS = ['WWW-Authenticate', 'Retry-After', 'Allow'];

function describe(error: Boom.Boom, request: Request): Described {
  if (error instanceof ForbiddenError && error.scope) {
    return { status: error.status, code: error.code, message: error.message, errors: error.errors, scope: error.scope };
  }
  if (error instanceof BrokerError) return { status: error.status, code: error.code, message: error.message, errors: error.errors };
  if (isDatabaseUnavailable(error)) return { status: 503, code: 'database_unavailable', message: 'Database unavailable, try again shortly', errors: null };
  const status = error.output.statusCode;
  const code = codeForStatus(status);
  if (status >= 500) return { status, code: 'internal_error', message: 'Internal server error', errors: null };
  if (status === 404) return { status, code, message: `No route for ${request.method.toUpperCase()} ${request.path}`, errors: null };
  if (status === 413) return { status, code, message: 'Request body is larger than this route accepts', errors: null };
  if (status === 415) return { status, code, message: 'Request bodies must be JSON: send Content-Type: application/json', errors: null };
  if (status === 403) return { status, code, ...insufficientScope(request), errors: null };
  return { status, code, message: String(error.output.payload.message || error.output.payload.error), errors: null };
}

function insufficientScope(request: Request): { message: string; scope?: string } {
  const required = request.route.settings.plugins?.miniqueue?.scope;
  if (!required) return { message: 'Your credential does not allow this' };
  const scope = required.replace(/\{(\w+)\}/g, (_, name: string) => String((request.params as Record<string, unknown>)[name] ?? name));
  return { message: `This needs the scope ${scope} (or admin)`, scope };
}

/** Every failure, from every route and from hapi itself, leaves in the contract's one shape. */
export function registerErrorShape(server: Server, logError: (request: Request, error: unknown) => void): void {
  server.ext('onPreResponse', (request: Request, h: ResponseToolkit) => {
    const response = request.response;
    if (!Boom.isBoom(response)) return h.continue;
    const described = describe(response, request);
    const { status } = described;
    if (status >= 500 && status !== 503) logError(request, response);
    const body: ErrorBody = { ...described, response_body: null };
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
