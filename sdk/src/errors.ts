import type { ErrorCode, FieldError } from './generated/index.js';

export interface MiniQueueErrorDetails {
  status: number;
  /** The broker's machine-readable reason; null when no response came, or it had no code. */
  code?: ErrorCode | null;
  message: string;
  /** With `scope_required`: the scope that would allow the request, when the broker named one. */
  scope?: string | null;
  /** Field problems of a 400; null otherwise. */
  errors?: FieldError[] | null;
  /** The parsed error body (the contract's error shape), or the raw text when it was not JSON. */
  body?: unknown;
  /** How many attempts were made before giving up. */
  attempts?: number;
  cause?: unknown;
}

/**
 * Every error the SDK raises for a failed request. `status` is the HTTP status, or 0 when no
 * response arrived (network failure, timeout). Subclasses let callers branch with `instanceof`
 * by status class; `code` (see `ErrorCode`) says exactly what went wrong, e.g. `queue_not_found`
 * or `lease_lost`. Branch on those, never on `message`, which is English for people.
 */
export class MiniQueueError extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly scope: string | null;
  readonly errors: FieldError[] | null;
  readonly body: unknown;
  readonly attempts: number;

  constructor(details: MiniQueueErrorDetails) {
    super(details.message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = new.target.name;
    this.status = details.status;
    this.code = details.code ?? null;
    this.scope = details.scope ?? null;
    this.errors = details.errors ?? null;
    this.body = details.body ?? null;
    this.attempts = details.attempts ?? 1;
  }
}

/** 400: the request itself is wrong; `errors` says which fields. */
export class BadRequestError extends MiniQueueError {}
/** 401: missing, invalid, expired or revoked credential. */
export class UnauthorizedError extends MiniQueueError {}
/** 403: a valid credential without the needed scope. */
export class ForbiddenError extends MiniQueueError {}
/** 404: the topic, queue, client or message does not exist. */
export class NotFoundError extends MiniQueueError {}
/** 409: conflicts with the current state (duplicate name, lease lost, key reused with other content...). */
export class ConflictError extends MiniQueueError {}
/** 413: a payload over the broker's limit. */
export class PayloadTooLargeError extends MiniQueueError {}

/** A status the broker may answer with a `Retry-After` header. */
export class RetryableStatusError extends MiniQueueError {
  /** The server's `Retry-After`, in milliseconds, when it sent one. */
  readonly retryAfterMs: number | null;

  constructor(details: MiniQueueErrorDetails & { retryAfterMs?: number | null }) {
    super(details);
    this.retryAfterMs = details.retryAfterMs ?? null;
  }
}

/** 429: rate limited; retried automatically, raised once the retries are used up. */
export class RateLimitedError extends RetryableStatusError {}
/** 502, 503, 504: the broker or its database is unavailable. */
export class UnavailableError extends RetryableStatusError {}
/** 500 (and any other 5xx): an unexpected server failure. */
export class ServerError extends RetryableStatusError {}

/** No response: the connection failed. `cause` holds the underlying error. */
export class ConnectionError extends MiniQueueError {}
/** No response within the request timeout. */
export class RequestTimeoutError extends ConnectionError {}

/**
 * Thrown by a consumer's handler to send the message straight to the dead-letter queue instead
 * of retrying it (for input that can never succeed, such as a malformed payload).
 */
export class DeadLetterError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DeadLetterError';
  }
}

/** Raised on a handler's signal when the consumer loses the message's lease. */
export class LeaseLostError extends Error {
  constructor(
    readonly messageId: string,
    options?: { cause?: unknown },
  ) {
    super(`Lost the lease of message ${messageId}`, options);
    this.name = 'LeaseLostError';
  }
}
