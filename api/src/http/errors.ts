import Boom from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { ValidationError as JoiValidationError } from 'joi';
import { BrokerError, RateLimitedError, ValidationError, type FieldError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';

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
    if (response instanceof RateLimitedError) reply.header('Retry-After', String(response.retryAfterSeconds));
    return reply;
  });
}

/**
 * An answer to bad input stays small whatever the input: a body with thousands of unknown keys
 * (or one key of 60 KB) gets the first few problems, each cut short, and a count of the rest.
 */
const MAX_LISTED_PROBLEMS = 10;
const MAX_FIELD_LENGTH = 100;
const MAX_PROBLEM_LENGTH = 200;
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** joi validation failures become a 400 listing the field problems (the first ten). */
export const failAction: Lifecycle.Method = (_request, _h, error) => {
  const details = (error as JoiValidationError | undefined)?.details ?? [];
  const errors = details.slice(0, MAX_LISTED_PROBLEMS).map((detail) => ({
    field: cut(detail.path.join('.') || String(detail.context?.key ?? 'body'), MAX_FIELD_LENGTH),
    message: cut(detail.message.replace(/^"(?:[^"\\]|\\.)*" /, ''), MAX_PROBLEM_LENGTH),
  }));
  const more = details.length - errors.length;
  const listed = errors.map((e) => `${e.field} ${e.message}`).join('; ');
  const summary = errors.length === 0 ? 'Invalid request' : more > 0 ? `${listed}; and ${more} more problems` : listed;
  throw new ValidationError(summary, errors.length > 0 ? errors : null);
};
