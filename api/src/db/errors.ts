/** PostgreSQL error codes the broker reacts to (https://www.postgresql.org/docs/current/errcodes-appendix.html). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
const INVALID_TEXT_REPRESENTATION = '22P02';

const pgCode = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;

export const isUniqueViolation = (error: unknown) => pgCode(error) === UNIQUE_VIOLATION;
export const isForeignKeyViolation = (error: unknown) => pgCode(error) === FOREIGN_KEY_VIOLATION;
export const isInvalidText = (error: unknown) => pgCode(error) === INVALID_TEXT_REPRESENTATION;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

/**
 * True when the database could not be reached or went away: connection failures, the server
 * shutting down (57P*), connection exceptions (08*), too many connections (53300), or the pool
 * giving up waiting for a connection.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = pgCode(error);
  if (code && (NETWORK_CODES.has(code) || code.startsWith('08') || code.startsWith('57P') || code === '53300')) {
    return true;
  }
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connect ECONNREFUSED/i.test(
    message,
  );
}
