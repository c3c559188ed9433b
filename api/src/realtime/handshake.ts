import type { IncomingMessage } from 'node:http';
import { codeForStatus, type ErrorCode } from '../errorCodes.js';
import type { FieldError } from '../errors.js';
import { originAllowed } from '../auth/origins.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../db/errors.js';

export type Endpoint = 'consume' | 'monitor' | 'stream';

/** Why a handshake is refused: an HTTP status, the contract's error body, and extra headers. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] | null = null,
    readonly headers: Record<string, string> = {},
    readonly code: ErrorCode = codeForStatus(status),
    /** With `scope_required`: the scope that would allow the handshake. */
    readonly scope?: string,
  ) {
    super(message);
  }

  /** The arguments of ws' verifyClient callback for a refusal. */
  reply(): [false, number, string, Record<string, string>] {
    const body = JSON.stringify({
      status: this.status,
      code: this.code,
      message: this.message,
      errors: this.errors,
      ...(this.scope ? { scope: this.scope } : {}),
      response_body: null,
    });
    return [false, this.status, body, { 'Content-Type': 'application/json; charset=utf-8', ...this.headers }];
  }
}

/** 429: a limit was reached; the client may try again after `retryAfterSeconds`. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) => new Refusal(429, message, null, { 'Retry-After': String(retryAfterSeconds) });

/** 503: the database could not be reached, or had no connection free in time. */
export const databaseUnavailable = () =>
  new Refusal(503, 'Database unavailable, try again shortly', null, { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) });

export interface Target {
  endpoint: Endpoint;
  params: URLSearchParams;
}

const ENDPOINTS: Record<string, Endpoint> = { '/ws/consume': 'consume', '/ws/monitor': 'monitor', '/ws/v1/stream': 'stream' };

export function targetOf(request: IncomingMessage): Target {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const path = url.pathname.replace(/\/+$/, '');
  const endpoint = ENDPOINTS[path];
  if (!endpoint) throw new Refusal(404, `No WebSocket endpoint at ${path || '/'}`, null, {}, 'websocket_endpoint_not_found');
  return { endpoint, params: url.searchParams };
}

/** A page served by this broker (the dashboard) opening a socket to the host it came from. */
function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Browsers always send Origin on a WebSocket handshake and cannot be stopped from opening one to
 * any site, so a browser page is only let in from the configured origins, or from this broker's
 * own host (the dashboard it serves, whatever name it was reached by). A handshake without Origin
 * comes from a program, which proves itself with its credential alone.
 */
export function checkOrigin(request: IncomingMessage, allowed: string[]): void {
  const origin = request.headers.origin;
  if (originAllowed(allowed, origin) || sameOrigin(origin, request.headers.host)) return;
  throw new Refusal(403, `Origin ${origin} is not allowed to open WebSockets (see CORS_ALLOWED_ORIGINS)`, null, {}, 'origin_not_allowed');
}
