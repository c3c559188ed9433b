import { ForbiddenError, MiniQueueError, NotFoundError, UnauthorizedError } from '../errors.js';

/** Why a consumer stopped for good. */
export type FatalReason = 'unauthorized' | 'forbidden' | 'queue_not_found';

const ADVICE: Record<FatalReason, (queue: string, error: MiniQueueError) => string> = {
  unauthorized: () => 'the API key is missing, wrong, expired or revoked: check the key the client was given',
  forbidden: (queue, error) => `the key lacks the scope ${error.scope ?? `consume:${queue}`}: grant it to the key's client`,
  queue_not_found: (queue) => `there is no queue named ${queue}: create it, or check the name`,
};

function reasonOf(error: MiniQueueError): FatalReason | null {
  if (error instanceof UnauthorizedError) return 'unauthorized';
  if (error instanceof ForbiddenError) return 'forbidden';
  if (error instanceof NotFoundError && error.code === 'queue_not_found') return 'queue_not_found';
  return null;
}

/**
 * The fatal error a claim error means, or null when retrying might help: the broker refused the
 * key (401), its scopes (403), or knows no such queue (404 queue_not_found). Other 404s (a
 * message gone) are not about the consumer itself.
 */
export function fatalErrorOf(queue: string, error: unknown): ConsumerFatalError | null {
  const reason = error instanceof MiniQueueError ? reasonOf(error) : null;
  return reason ? new ConsumerFatalError(queue, reason, error as MiniQueueError) : null;
}

/**
 * Emitted as a consumer's `fatal` event when a claim is refused for a reason retrying cannot
 * mend; the consumer has stopped by then. `cause` is the broker's error (status, code, scope).
 * Its message is one line, what went wrong and what to do, so it can be printed as it is.
 */
export class ConsumerFatalError extends Error {
  readonly queue: string;
  readonly reason: FatalReason;
  /** The broker's status (401, 403 or 404) and code. */
  readonly status: number;
  readonly code: MiniQueueError['code'];
  declare readonly cause: MiniQueueError;

  constructor(queue: string, reason: FatalReason, cause: MiniQueueError) {
    const code = cause.code ? ` ${cause.code}` : '';
    super(`MiniQueue consumer of ${queue} stopped: ${cause.status}${code} (${cause.message}); ${ADVICE[reason](queue, cause)}`, { cause });
    this.name = 'ConsumerFatalError';
    this.queue = queue;
    this.reason = reason;
    this.status = cause.status;
    this.code = cause.code;
  }
}

/** One line for an error printed where nobody listens: its name, status, code and message, no stack. */
export function oneLine(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { status, code } = error as { status?: unknown; code?: unknown };
  const tags = [typeof status === 'number' && status > 0 ? status : '', typeof code === 'string' ? code : ''].filter(Boolean).join(' ');
  return `${error.name}${tags ? ` (${tags})` : ''}: ${error.message.split('\n')[0]}`;
}

export const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));
