import { UnavailableError } from '../errors.js';

/** A client may retry a 503 for a busy or unreachable database after this long. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** The wait for a pooled connection ran out: the database is up, every connection is busy. */
export class ConnectionWaitExpiredError extends UnavailableError {
  constructor(waitMs: number) {
    super(`No database connection became free within ${waitMs / 1000} s; try again shortly`, DATABASE_RETRY_AFTER_SECONDS);
  }
}

/**
 * None of a multi-host DATABASE_URL's servers is of the kind wanted now (during a failover: the
 * primary is gone, and no standby has been promoted yet), or the one tried went away.
 */
export class NoSuitableServerError extends UnavailableError {
  constructor(readonly reason: string) {
    super('No writable database server is reachable now; try again shortly', DATABASE_RETRY_AFTER_SECONDS);
  }
}

/**
 * A commit the database did not confirm within MINIQUEUE_DB_COMMIT_TIMEOUT_SECONDS (db/commitBound.ts),
 * typically waiting for a synchronous standby that is gone. Its outcome is unknown: the wait was
 * cancelled, and PostgreSQL keeps such a transaction committed locally. So a retry may find it
 * done (an idempotent publish answers 200 duplicate, an ack 404 or 409), and a publish without an
 * Idempotency-Key may be stored twice.
 */
export class CommitOutcomeUnknownError extends UnavailableError {
  constructor(timeoutMs: number) {
    super(
      `The database did not confirm the commit within ${timeoutMs / 1000} s; it may or may not have taken effect. Try again shortly (with the same Idempotency-Key, a publish is stored once)`,
      DATABASE_RETRY_AFTER_SECONDS,
    );
  }
}

/** PostgreSQL error codes the broker reacts to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const TOO_MANY_CONNECTIONS = '53300';
const CANNOT_CONNECT_NOW = '57P03';
/** A lock was not granted within lock_timeout (set in every transaction: db/pool.ts). */
const LOCK_NOT_AVAILABLE = '55P03';
/** PostgreSQL broke a cycle of lock waits by aborting this transaction. */
const DEADLOCK_DETECTED = '40P01';
/** A statement ran past statement_timeout (every pooled connection has one: db/pool.ts), or was cancelled. */
const QUERY_CANCELED = '57014';
/** A write on a server that has turned read-only (a demoted primary, a standby): leave it (db/targetedClient.ts). */
const READ_ONLY_SQL_TRANSACTION = '25006';

export const isReadOnlyTransaction = (error: unknown) => pgCode(error) === READ_ONLY_SQL_TRANSACTION;

export const pgCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;

/** A lock was not granted in time, or its wait closed a cycle: nothing was done, and trying again may succeed. */
export const isLockContention = (error: unknown) => {
  const code = pgCode(error);
  return code === LOCK_NOT_AVAILABLE || code === DEADLOCK_DETECTED;
};
export const isUniqueViolation = (error: unknown) => pgCode(error) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (error: unknown) => pgCode(error) === FOREIGN_KEY_VIOLATION;
/** PostgreSQL refused a new connection at max_connections: it is there, and its open connections serve. */
export const isServerFull = (error: unknown) => pgCode(error) === TOO_MANY_CONNECTIONS;
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
 * (57014: likewise), a write refused by a server that has turned read-only (25006: the broker is
 * moving to the new primary), or the pool giving up waiting for a connection or for a writable
 * server (pool.ts and targetedClient.ts raise an UnavailableError then), or a commit not confirmed in
 * time (commitBound.ts): as final as the others, so a group commit never tries such a batch's
 * requests again one by one (they may be stored already).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionWaitExpiredError || error instanceof NoSuitableServerError || error instanceof CommitOutcomeUnknownError) return true;
  const code = pgCode(error);
  if (
    code &&
    (NETWORK_CODES.has(code) ||
      code.startsWith('08') ||
      code.startsWith('57P') ||
      code === TOO_MANY_CONNECTIONS ||
      code === LOCK_NOT_AVAILABLE ||
      code === QUERY_CANCELED ||
      code === READ_ONLY_SQL_TRANSACTION)
  ) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(message);
}
