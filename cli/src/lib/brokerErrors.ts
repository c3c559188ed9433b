import type { Connection } from './connection.js';
import { EXIT, Failure } from './failure.js';

/** What the SDK's errors (and the monitor's refused handshakes) have in common. */
export interface BrokerError extends Error {
  status: number;
  /** The broker's machine-readable reason (openapi.yaml's ErrorCode); hints are chosen by it. */
  code?: string | null;
  /** With `scope_required`: the scope that would allow the request. */
  scope?: string | null;
  errors?: Array<{ field: string; message: string }> | null;
  retryAfterMs?: number | null;
}

export function isBrokerError(error: unknown): error is BrokerError {
  return error instanceof Error && typeof (error as Partial<BrokerError>).status === 'number';
}

export interface Principal {
  name: string;
  scopes: string[];
}

export interface FailureContext {
  connection: Connection;
  /** The command's id, for the help it can point to. */
  command?: string;
  /** Who the key belongs to, to say on a 403 what the key can do; null when that is unknown. */
  principal: () => Promise<Principal | null>;
}

/** A broker error as one line the user can act on, with a hint and an exit code. */
export async function describeBrokerError(error: BrokerError, context: FailureContext): Promise<Failure> {
  const { status } = error;
  const message = error.message || `The broker answered ${status}`;
  switch (status) {
    case 0:
      return new Failure(
        `Cannot reach the broker at ${context.connection.url}${causeOf(error)}`,
        'Is it running? Point at it with --url or MINIQUEUE_URL, or save it with `miniqueue login`.',
        EXIT.failure,
        0,
      );
    case 400:
      return new Failure(withFieldErrors(message, error.errors), helpHint(context.command), EXIT.failure, status);
    case 401:
      return new Failure(message, unauthorizedHint(context.connection), EXIT.auth, status);
    case 403:
      return new Failure(message, await forbiddenHint(error, context), EXIT.auth, status);
    case 404:
      return new Failure(message, notFoundHint(error, context.connection), EXIT.notFound, status);
    case 409:
      return new Failure(message, conflictHint(error), EXIT.conflict, status);
    case 413:
      return new Failure(message, 'Send a smaller payload; the broker sets the limit (MINIQUEUE_MAX_PAYLOAD_BYTES).', EXIT.failure, status);
    case 429:
      return new Failure(message, `The broker is rate limiting; try again${retryIn(error)}.`, EXIT.failure, status);
    default:
      if (status >= 500) return new Failure(message, 'The broker failed; try again shortly. Its logs have the details.', EXIT.failure, status);
      return new Failure(message, null, EXIT.failure, status);
  }
}

/** The innermost reason (ECONNREFUSED, ENOTFOUND…): fetch wraps it in "fetch failed". */
function causeOf(error: Error): string {
  let reason: string | undefined;
  for (let cause: unknown = error.cause; cause instanceof Error; cause = cause.cause) {
    reason = (cause as NodeJS.ErrnoException).code ?? cause.message;
  }
  return reason ? ` (${reason})` : '';
}

/** The broker's field problems, unless its message already spells them out. */
function withFieldErrors(message: string, errors: BrokerError['errors']): string {
  const missing = (errors ?? []).filter((e) => !message.includes(e.message));
  return missing.length === 0 ? message : `${message}: ${missing.map((e) => `${e.field} ${e.message}`).join('; ')}`;
}

function helpHint(command: string | undefined): string | null {
  return command ? `See \`miniqueue ${command} --help\`.` : null;
}

function retryIn(error: BrokerError): string {
  return error.retryAfterMs ? ` in ${Math.ceil(error.retryAfterMs / 1000)} s` : ' later';
}

function unauthorizedHint(connection: Connection): string {
  const login = connection.profile && connection.profile !== 'default' ? `miniqueue login --profile ${connection.profile}` : 'miniqueue login';
  switch (connection.keySource) {
    case 'none':
      return `No API key for ${connection.url}. Log in with \`miniqueue login --url ${connection.url}\`, or set MINIQUEUE_API_KEY.`;
    case 'profile':
      return `The key saved in profile ${connection.profile} was refused (rotated or revoked?). Log in again with \`${login}\`.`;
    case 'prompt':
      return 'The key you entered was refused (mistyped, rotated or revoked?). Check it and log in again.';
    case 'flag':
      return 'The key from --api-key or MINIQUEUE_API_KEY was refused (mistyped, rotated or revoked?). Check it, or log in with `miniqueue login`.';
  }
}

async function forbiddenHint(error: BrokerError, context: FailureContext): Promise<string> {
  const needed = error.code === 'scope_required' ? (error.scope ?? undefined) : undefined;
  const principal = await context.principal().catch(() => null);
  const has = principal ? `Your key (${principal.name}) has: ${principal.scopes.join(', ') || 'no scopes'}. ` : '';
  const scope = needed ? `the scope ${needed}` : 'the right scope';
  return `${has}Use a key with ${scope} (--api-key, or \`miniqueue login\`); an admin registers one with \`miniqueue clients:create NAME --scope ${needed ?? 'SCOPE'}\`.`;
}

/** What to do about a 409, by its code; a conflict without a known code still gets a hint that holds for all. */
const CONFLICTS: Record<string, string> = {
  topic_exists: 'Pick another name; `miniqueue topics:list` shows the existing ones.',
  queue_exists: 'Pick another name; `miniqueue queues:list` shows the existing ones.',
  client_exists: 'Pick another name, or give that client a new key with `miniqueue clients:rotate NAME`.',
  topic_has_queues: '`miniqueue topics:list` shows the queues bound to each topic; delete them with `miniqueue queues:delete`.',
  idempotency_conflict: 'A key stands for one message: send a new --idempotency-key for a different topic, payload or headers.',
  message_not_dead: 'Only dead messages can be replayed or deleted; `miniqueue dlq:list` shows them, `miniqueue messages:get ID` where this one is.',
  message_not_unacked:
    'Only a claimed (UNACKED) message can be acked, nacked or extended; `miniqueue messages:list QUEUE` shows its status.',
  lease_lost:
    'Only the consumer holding a message (same key, same --instance) can ack, nack or extend it, until it is redelivered; `miniqueue messages:list QUEUE` shows its status.',
  last_admin:
    'Some client must keep the admin scope: give another client admin first (`miniqueue clients:update NAME --scope admin`, or `miniqueue clients:create`), then change or revoke this one.',
};

function conflictHint(error: BrokerError): string {
  return (error.code ? CONFLICTS[error.code] : undefined) ?? "The broker's state does not allow this now; look at it again (the list commands) and retry.";
}

const LISTERS: Record<string, string> = {
  topic_not_found: '`miniqueue topics:list` shows the topics.',
  queue_not_found: '`miniqueue queues:list` shows the queues.',
  client_not_found: '`miniqueue clients:list` shows the registered clients.',
  message_not_found: '`miniqueue messages:list QUEUE` and `miniqueue dlq:list` show message ids.',
};

function notFoundHint(error: BrokerError, connection: Connection): string {
  const lister = error.code ? LISTERS[error.code] : undefined;
  return lister ?? `Is ${connection.url} a MiniQueue broker of this version? Check --url.`;
}
