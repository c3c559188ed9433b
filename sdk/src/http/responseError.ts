import { instanceOfErrorCode, type ErrorCode, type FieldError } from '../generated/index.js';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  MiniQueueError,
  NotFoundError,
  PayloadTooLargeError,
  RateLimitedError,
  ServerError,
  UnauthorizedError,
  UnavailableError,
  type MiniQueueErrorDetails,
} from '../errors.js';
import { retryAfterMs } from './retryAfter.js';

type ErrorClass = new (details: MiniQueueErrorDetails & { retryAfterMs?: number | null }) => MiniQueueError;

const byStatus: Record<number, ErrorClass> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
  409: ConflictError,
  413: PayloadTooLargeError,
  429: RateLimitedError,
  502: UnavailableError,
  503: UnavailableError,
  504: UnavailableError,
};

function classFor(status: number): ErrorClass {
  return byStatus[status] ?? (status >= 500 ? ServerError : MiniQueueError);
}

/** What an error is read from: a fetch Response or the SDK's BufferedResponse. */
export interface ErrorResponse {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

async function readBody(response: ErrorResponse): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  scope?: unknown;
  errors?: unknown;
}

/** The typed error for a non-2xx response, from the contract's error shape when the body has it. */
export async function errorFromResponse(response: ErrorResponse, attempts: number): Promise<MiniQueueError> {
  const fallback = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  return errorFromBody(response.status, await readBody(response), { attempts, fallback, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) });
}

/**
 * The typed error for a status and an error body (the contract's shape), wherever they came from:
 * an HTTP response, or a stream's `reject` and `error` frames, which carry the same fields.
 */
export function errorFromBody(
  status: number,
  body: unknown,
  options: { attempts?: number; fallback?: string; retryAfterMs?: number | null } = {},
): MiniQueueError {
  const shape: ErrorShape = body !== null && typeof body === 'object' ? (body as ErrorShape) : {};
  const message = typeof shape.message === 'string' && shape.message ? shape.message : (options.fallback ?? `Status ${status}`);
  const errors = Array.isArray(shape.errors) ? (shape.errors as FieldError[]) : null;
  const ErrorType = classFor(status);
  return new ErrorType({
    status,
    // A code this SDK does not know yet (a newer broker) is kept as null: callers fall back on status.
    code: instanceOfErrorCode(shape.code) ? (shape.code as ErrorCode) : null,
    scope: typeof shape.scope === 'string' ? shape.scope : null,
    message,
    errors,
    body,
    attempts: options.attempts ?? 1,
    retryAfterMs: options.retryAfterMs ?? null,
  });
}
