import type { Queryable } from '../db/pool.js';
import { wsTicketInsert, wsTicketTake } from '../db/queries/wsTicket.js';
import type { Principal } from './principal.js';
import { hashSecret, newSecret } from './secrets.js';

export const WS_TICKET_PREFIX = 'wst_';
export const WS_TICKET_TTL_SECONDS = 30;

/**
 * A ticket for the `ticket` query parameter of a WebSocket handshake, where browsers cannot send
 * an Authorization header. It carries the principal (credentialId included, so closing the
 * credential's sockets also covers sockets opened with its tickets) and the hash of the key or
 * session token it was asked for with (so rotating that key voids it).
 */
export async function issueWsTicket(db: Queryable, principal: Principal, credentialHash: Buffer): Promise<{ ticket: string; expires_at: string }> {
  const { secret, hash } = newSecret(WS_TICKET_PREFIX);
  const expiresAt = await wsTicketInsert(db, {
    ticketHash: hash,
    credentialHash,
    ttlSeconds: WS_TICKET_TTL_SECONDS,
    name: principal.name,
    kind: principal.kind,
    scopes: principal.scopes,
    owner: principal.owner,
    credential_id: principal.credentialId,
  });
  return { ticket: secret, expires_at: expiresAt.toISOString() };
}

/**
 * The principal a ticket was issued to, or null when it is unknown, used, expired, or its
 * credential has been revoked or has ended since. Single use on every instance at once.
 */
export async function redeemWsTicket(db: Queryable, ticket: string): Promise<Principal | null> {
  if (!ticket.startsWith(WS_TICKET_PREFIX)) return null;
  const row = await wsTicketTake(db, hashSecret(ticket));
  if (!row) return null;
  return { name: row.name, kind: row.kind, scopes: row.scopes, owner: row.owner, credentialId: row.credential_id };
}
