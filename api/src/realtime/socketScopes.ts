import { hasScope } from '../auth/scopes.js';
import type { Principal } from '../auth/principal.js';

/** What a socket needs of its credential: `view` for /ws/monitor, `consume:<queue>` for /ws/consume. */
export const scopeNeededFor = (socket: { queue?: string }): string => (socket.queue === undefined ? 'view' : `consume:${socket.queue}`);

/** Does a credential with these scopes still allow this socket? (Asked when a client's scopes change.) */
export const scopesAllow = (scopes: Principal['scopes'], socket: { queue?: string }): boolean => hasScope({ scopes }, scopeNeededFor(socket));
