import type { ErrorCode } from './errorCodes.js';

export type { ErrorCode };

/**
 * Errors the broker raises on purpose. Each carries the HTTP status it means and a stable `code`
 * (errorCodes.ts); `http/errors.ts` turns them (and hapi's own) into the contract's one error shape.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class BrokerError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly errors: FieldError[] | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends BrokerError {
  constructor(message: string, errors: FieldError[] | null = null, code: ErrorCode = 'validation_failed') {
    super(400, code, message, errors);
  }
}
export class UnauthorizedError extends BrokerError {
  constructor(code: ErrorCode = 'unauthenticated', message = 'Missing or invalid credential') {
    super(401, code, message);
  }
}
export class ForbiddenError extends BrokerError {
  constructor(
    code: ErrorCode,
    message: string,
    /** With `scope_required`: the one scope that would allow the request, when it is known. */
    readonly scope?: string,
  ) {
    super(403, code, message);
  }
}
export class NotFoundError extends BrokerError {
  constructor(code: ErrorCode, message: string) {
    super(404, code, message);
  }
}
export class ConflictError extends BrokerError {
  constructor(code: ErrorCode, message: string) {
    super(409, code, message);
  }
}
export class PayloadTooLargeError extends BrokerError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}
/** `retryAfterSeconds` becomes the Retry-After header (see http/errors.ts). */
export class RateLimitedError extends BrokerError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    code: ErrorCode = 'rate_limited',
  ) {
    super(429, code, message);
  }
}
/** `retryAfterSeconds`, when known, becomes the Retry-After header. */
export class UnavailableError extends BrokerError {
  constructor(
    message = 'Database unavailable, try again shortly',
    readonly retryAfterSeconds?: number,
    code: ErrorCode = 'database_unavailable',
  ) {
    super(503, code, message);
  }
}
