import Boom from '@hapi/boom';
import type { Server } from '@hapi/hapi';
import type { CredentialResolver } from './credentials.js';
import { AUTH_STRATEGY } from '../http/access.js';
import { hashSecret } from './apiKeys.js';

export type CredentialArtifacts = {
  credentialHash: Buffer;
};

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** What a credential that is unknown, or no longer valid, is answered: now, or when it ends under a long poll. */
export const credentialRefused = (): Error => Boom.unauthorized('Invalid, expired or revoked credential', 'Bearer');

/**
 * `Authorization: Bearer <credential>` for every protected route. The principal's scopes are
 * handed to hapi as `scope`, so route rules like `publish:{params.topic}` are checked by hapi.
 */
export function registerAuth(server: Server, resolver: CredentialResolver): void {
  server.auth.scheme('bearer-credential', () => ({
    authenticate: async (request, h) => {
      const authorization = request.headers.authorization as string | undefined;
      if (!authorization) throw Boom.unauthorized('Missing credential: send Authorization: Bearer <key>', 'Bearer');
      const match = BEARER.exec(authorization);
      if (!match) throw Boom.unauthorized('Malformed Authorization header: expected Bearer <key>', 'Bearer');
      const principal = await resolver.resolve(match[1]);
      if (!principal) throw credentialRefused();
      // The hash of the very credential, for what must die with it (WebSocket tickets).
      const artifacts: CredentialArtifacts = { credentialHash: hashSecret(match[1]) };
      return h.authenticated({ credentials: { ...principal, scope: principal.scopes }, artifacts });
    },
  }));
  server.auth.strategy(AUTH_STRATEGY, 'bearer-credential');
}
