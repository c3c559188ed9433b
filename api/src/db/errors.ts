import { UnavailableError } from '../errors.js';

/** A client may retry a 503 for a busy or unreachable database after this long. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** The wait for a pooled connection ran out: the database is up, every connection is busy. */
export class ConnectionWaitExpiredError extends UnavailableError {
  constructor(waitMs: number) {
    super(`No database connection became free within ${waitMs / 1000} s; try again shortly`, DATABASE_RETRY_AFTER_SECONDS);
  }
}

/** PostgreSQL error codes the broker reacts to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const INVALID_TEXT_REPRESENTATION = '22P02';
const TOO_MANY_CONNECTIONS = '53300';
const CANNOT_CONNECT_NOW = '57P03';
/** A lock was not granted within lock_timeout (set in every transaction: db/pool.ts). */
const LOCK_NOT_AVAILABLE = '55P03';
/** A statement ran past statement_timeout (every pooled connection has one: db/pool.ts), or was cancelled. */
const QUERY_CANCELED = '57014';

const pgCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;

export const isUniqueViolation = (error: unknown) => pgCode(error) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (error: unknown) => pgCode(error) === FOREIGN_KEY_VIOLATION;
export const isInvalidText = (error: unknown) => pgCode(error) === INVALID_TEXT_REPRESENTATION;
/** PostgreSQL answered but took no new connection: max_connections reached, or starting up. */
export const isConnectionRefusedForNow = (error: unknown) => {
  const code = pgCode(error);
  return code === TOO_MANY_CONNECTIONS || code === CANNOT_CONNECT_NOW;
};

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * True when the database could not be reached or went away: connection failures, the server
 * shutting down (57P*), connection exceptions (08*), too many connections (53300), a lock not
 * granted within lock_timeout (55P03: busy, so try again), a statement past its statement_timeout
 * (57014: likewise), or the pool giving up waiting for a
 * connection (pool.ts raises an UnavailableError then).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionWaitExpiredError) return true;
  const code = pgCode(error);
  if (code && (NETWORK_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || code === TOO_MANY_CONNECTIONS || code === LOCK_NOT_AVAILABLE || code === QUERY_CANCELED)) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
    message,
  );
}
