import type { Queryable } from '../pool.js';

export interface WsTicketRow {
  name: string;
  kind: 'client' | 'session';
  scopes: string[];
  owner: string;
  credential_id: string;
}

/** `credentialHash`: the hash of the API key or session token that asked for the ticket. */
export async function wsTicketInsert(db: Queryable, ticket: WsTicketRow & { ticketHash: Buffer; credentialHash: Buffer; ttlSeconds: number }): Promise<Date> {
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO ws_ticket (ticket_hash, name, kind, scopes, owner, credential_id, credential_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8)) RETURNING expires_at`,
    [ticket.ticketHash, ticket.name, ticket.kind, ticket.scopes, ticket.owner, ticket.credential_id, ticket.credentialHash, ticket.ttlSeconds],
  );
  return rows[0].expires_at;
}

/**
 * Uses a ticket up (deleted as it is read: one redemption wins). It yields nothing when expired,
 * or when the credential that asked for it has since been rotated, revoked or has ended, so a
 * ticket never outlives the very key or session it was minted with. A client's ticket carries the
 * client's scopes as they are now, not as they were when it was issued: a ticket asked for before
 * a scope was taken away no longer opens what that scope allowed.
 */
export async function wsTicketTake(db: Queryable, ticketHash: Buffer): Promise<WsTicketRow | null> {
  const { rows } = await db.query<WsTicketRow>(
    `WITH taken AS (DELETE FROM ws_ticket WHERE ticket_hash = $1 RETURNING *)
     SELECT t.name, t.kind, CASE t.kind WHEN 'client' THEN c.scopes ELSE t.scopes END AS scopes, t.owner, t.credential_id
       FROM taken t
       LEFT JOIN client c ON t.kind = 'client' AND c.id = t.credential_id AND c.revoked_at IS NULL
                         AND c.key_hash = t.credential_hash
      WHERE t.expires_at > now()
        AND CASE t.kind
              WHEN 'client' THEN c.id IS NOT NULL
              ELSE EXISTS (SELECT 1 FROM dashboard_session s WHERE s.id = t.credential_id AND s.expires_at > now()
                                                                AND s.token_hash = t.credential_hash)
            END`,
    [ticketHash],
  );
  return rows[0] ?? null;
}

export async function wsTicketDeleteExpired(db: Queryable): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM ws_ticket WHERE expires_at <= now()');
  return rowCount ?? 0;
}
