import type { ServerRoute } from '@hapi/hapi';
import { NotImplementedError } from '../../errors.js';
import { access, principalOf } from '../access.js';

const notYet = () => {
  throw new NotImplementedError('GitHub sign-in, sessions and WebSocket tickets are not available in this version');
};

/** Who am I; the sign-in routes are declared so the contract is complete. */
export function authRoutes(): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/auth/me',
      options: access('any'),
      handler: (request) => {
        const principal = principalOf(request);
        return { name: principal.name, kind: principal.kind, scopes: principal.scopes };
      },
    },
    { method: 'GET', path: '/api/v1/auth/github/login', options: access('none'), handler: notYet },
    { method: 'GET', path: '/api/v1/auth/github/callback', options: access('none'), handler: notYet },
    { method: 'POST', path: '/api/v1/auth/exchange', options: access('none'), handler: notYet },
    { method: 'POST', path: '/api/v1/auth/logout', options: access('session'), handler: notYet },
    { method: 'POST', path: '/api/v1/auth/ws-ticket', options: access('any'), handler: notYet },
  ];
}
