import { BrokerError, ForbiddenError, RateLimitedError, UnavailableError, type ErrorCode, type FieldError } from '../errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/errors.js';

/** The contract's error body, as a stream frame carries it (without HTTP's `response_body`). */
export interface StreamErrorBody {
  status: number;
  code: ErrorCode;
  message: string;
  errors: FieldError[] | null;
  scope?: string;
  /** What HTTP says in Retry-After. */
  retry_after_seconds?: number;
}

/**
 * Any failure as a frame's error body, exactly as http/errors.ts describes it for a request;
 * `unexpected` is told of the failures that are the broker's fault (answered 500).
 */
export function errorBodyOf(error: unknown, unexpected: (error: unknown) => void): StreamErrorBody {
  if (error instanceof BrokerError) {
    const body: StreamErrorBody = { status: error.status, code: error.code, message: error.message, errors: error.errors };
    if (error instanceof ForbiddenError && error.scope) body.scope = error.scope;
    const retryAfter = error instanceof RateLimitedError || error instanceof UnavailableError ? error.retryAfterSeconds : undefined;
    if (retryAfter !== undefined) body.retry_after_seconds = retryAfter;
    return body;
  }
  if (isDatabaseUnavailable(error)) {
    return {
      status: 503,
      code: 'database_unavailable',
      message: 'Database unavailable, try again shortly',
      errors: null,
      retry_after_seconds: DATABASE_RETRY_AFTER_SECONDS,
    };
  }
  unexpected(error);
  return { status: 500, code: 'internal_error', message: 'Internal server error', errors: null };
}
