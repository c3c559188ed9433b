import type { Connection } from './connection.js';
import { CODE_HINTS, codeHint } from './codeHints.js';
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

/** A broker error as one line the user can act on, with a hint (by its code first) and an exit code. */
export async function describeBrokerError(error: BrokerError, context: FailureContext): Promise<Failure> {
  const { status } = error;
  const message = status === 400 ? withFieldErrors(error.message || 'Bad request', error.errors) : error.message || `The broker answered ${status}`;
  const hint = (await contextualHint(error, context)) ?? codeHint(error.code) ?? statusHint(error, context);
  return new Failure(status === 0 ? `Cannot reach the broker at ${context.connection.url}${causeOf(error)}` : message, hint, exitCodeOf(status), status);
}

function exitCodeOf(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  return EXIT.failure;
}

/** Hints that depend on where the key came from, what it can do, or what the broker said. */
async function contextualHint(error: BrokerError, context: FailureContext): Promise<string | undefined> {
  if (error.status === 0) return 'Is it running? Point at it with --url or MINIQUEUE_URL, or save it with `miniqueue login`.';
  if (error.status === 400 && (!error.code || error.code === 'validation_failed')) return helpHint(context.command) ?? undefined;
  if (error.code === 'unknown_scope') return [CODE_HINTS.unknown_scope, helpHint(context.command)].filter(Boolean).join(' ');
  if (error.status === 401 && (!error.code || error.code === 'unauthenticated')) return unauthorizedHint(context.connection);
  if (error.status === 403 && (!error.code || error.code === 'scope_required')) return forbiddenHint(error, context);
  if (error.status === 429 && (!error.code || error.code === 'rate_limited')) return `The broker is rate limiting; try again${retryIn(error)}.`;
  return undefined;
}

/** For a code this CLI does not know (a newer broker), a hint by status class. */
function statusHint(error: BrokerError, context: FailureContext): string | null {
  if (error.status === 404) return `Is ${context.connection.url} a MiniQueue broker of this version? Check --url.`;
  if (error.status === 409) return "The broker's state does not allow this now; look at it again (the list commands) and retry.";
  if (error.status === 413) return CODE_HINTS.payload_too_large;
  if (error.status >= 500) return CODE_HINTS.internal_error;
  return null;
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
