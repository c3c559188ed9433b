import type { IncomingMessage } from 'node:http';
import type { Pool } from '../db/pool.js';
import type { CredentialResolver } from '../auth/credentials.js';
import type { Principal } from '../auth/principal.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { redeemWsTicket, WS_TICKET_PREFIX } from '../auth/tickets.js';
import { databaseUnavailable, Refusal } from './handshake.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const unauthorized = (message: string) => new Refusal(401, message, null, { 'WWW-Authenticate': 'Bearer' });

/**
 * The principal behind a handshake: a single-use ticket (`?ticket=wst_…`, what browsers can send)
 * or `Authorization: Bearer …` (programs). Refuses with 401 when neither proves anyone.
 */
export async function principalOfHandshake(
  request: IncomingMessage,
  params: URLSearchParams,
  deps: { pool: Pool; credentials: CredentialResolver },
): Promise<Principal> {
  try {
    const ticket = params.get('ticket');
    if (ticket !== null) return await fromTicket(ticket, deps.pool);
    const authorization = request.headers.authorization;
    if (authorization === undefined) {
      throw unauthorized('Missing credential: send ?ticket=wst_… or Authorization: Bearer <key>');
    }
    const match = BEARER.exec(authorization);
    if (!match) throw unauthorized('Malformed Authorization header: expected Bearer <key>');
    const principal = await deps.credentials.resolve(match[1]);
    if (!principal) throw unauthorized('Invalid, expired or revoked credential');
    return principal;
  } catch (error) {
    if (error instanceof Refusal) throw error;
    if (isDatabaseUnavailable(error)) throw databaseUnavailable();
    throw error;
  }
}

async function fromTicket(ticket: string, pool: Pool): Promise<Principal> {
  if (!ticket.startsWith(WS_TICKET_PREFIX)) throw unauthorized('Invalid ticket');
  const principal = await redeemWsTicket(pool, ticket);
  if (!principal) throw unauthorized('Invalid, expired or already used ticket');
  return principal;
}
