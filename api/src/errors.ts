/**
 * Errors the broker raises on purpose. Each carries the HTTP status it means; `http/errors.ts`
 * turns them (and hapi's own) into the contract's one error shape.
 */
export interface FieldError {
  field: string;
  message: string;
}

export class BrokerError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends BrokerError {
  constructor(message: string, errors: FieldError[] | null = null) {
    super(400, message, errors);
  }
}
export class UnauthorizedError extends BrokerError {
  constructor(message = 'Missing or invalid credential') {
    super(401, message);
  }
}
export class ForbiddenError extends BrokerError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFoundError extends BrokerError {
  constructor(message: string) {
    super(404, message);
  }
}
export class ConflictError extends BrokerError {
  constructor(message: string) {
    super(409, message);
  }
}
export class PayloadTooLargeError extends BrokerError {
  constructor(message: string) {
    super(413, message);
  }
}
/** `retryAfterSeconds` becomes the Retry-After header (see http/errors.ts). */
export class RateLimitedError extends BrokerError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(429, message);
  }
}
/** `retryAfterSeconds`, when known, becomes the Retry-After header. */
export class UnavailableError extends BrokerError {
  constructor(
    message = 'Database unavailable, try again shortly',
    readonly retryAfterSeconds?: number,
  ) {
    super(503, message);
  }
}
