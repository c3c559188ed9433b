import { AuthApi, type Me, type Session, type WsTicket } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export function authResource(t: Transport) {
  return {
    /** Who the credential belongs to, its kind and scopes. */
    me: (options?: CallOptions): Promise<Me> => t.api(AuthApi, options).getMe(),
    /** A 30-second, single-use ticket for `/ws/consume` or `/ws/monitor` (browsers cannot send headers there). */
    wsTicket: (options?: CallOptions): Promise<WsTicket> => t.api(AuthApi, options).createWsTicket(),
    /** Redeems the one-time login code of the sign-in redirect for a session token. */
    exchange: (code: string, options?: CallOptions): Promise<Session> => t.api(AuthApi, options).exchangeLoginCode({ exchangeRequest: { code } }),
    /** Ends the current dashboard session everywhere. */
    logout: (options?: CallOptions): Promise<void> => t.api(AuthApi, options).logout(),
    /**
     * Where to send a browser to sign in with GitHub. Sign-in is a navigation, not a fetch: GitHub
     * redirects back to the broker's callback, which redirects to the dashboard with a login code.
     */
    githubLoginUrl: (): string => `${t.baseUrl}/api/v1/auth/github/login`,
  };
}

export type AuthResource = ReturnType<typeof authResource>;
