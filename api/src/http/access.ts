import type { RouteOptions } from '@hapi/hapi';
import { ForbiddenError, ValidationError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import { consumableQueues } from '../auth/scopes.js';
import type { Holder } from '../broker/settle.js';
import type { Request } from '@hapi/hapi';
import { header } from './hapi-augment.js';

export const AUTH_STRATEGY = 'miniqueue';

/**
 * The access rule of a route, written as in openapi.yaml's x-required-scope:
 * `none`, `any`, `session`, `admin`, `view`, `metrics`, `publish:{topic}`, `consume:{queue}`,
 * `consume:{message.queue}` (checked against the message's queue when it is settled).
 * `admin` implies everything; anything else not granted is denied.
 */
export function access(required: string): Pick<RouteOptions, 'auth' | 'plugins'> {
  const plugins = { miniqueue: { scope: required } };
  switch (required) {
    case 'none':
      return { auth: false, plugins };
    case 'any':
    case 'session':
    case 'consume:{message.queue}':
      return { auth: { strategy: AUTH_STRATEGY }, plugins };
    case 'admin':
      return { auth: { strategy: AUTH_STRATEGY, access: { scope: ['admin'] } }, plugins };
    case 'view':
    case 'metrics':
      return { auth: { strategy: AUTH_STRATEGY, access: { scope: ['admin', required] } }, plugins };
    case 'publish:{topic}':
      return { auth: { strategy: AUTH_STRATEGY, access: { scope: ['admin', 'publish:*', 'publish:{params.topic}'] } }, plugins };
    case 'consume:{queue}':
      return { auth: { strategy: AUTH_STRATEGY, access: { scope: ['admin', 'consume:*', 'consume:{params.queue}'] } }, plugins };
    default:
      throw new Error(`Unknown access rule ${required}`);
  }
}

export const principalOf = (request: Request): Principal => request.auth.credentials as unknown as Principal;

const INSTANCE = /^[A-Za-z0-9._:/-]{1,100}$/;

/**
 * Consumer identity: who holds a lease (the credential's owner: a client's id, or a person, so a
 * revoked client whose name is registered again holds nothing of the old one's) and the same as
 * people read it (the client's name), each plus the MiniQueue-Instance header when given.
 */
export function consumerOf(request: Request): { holder: string; consumerId: string } {
  const principal = principalOf(request);
  const instance = header(request, 'miniqueue-instance');
  if (instance === undefined) return { holder: principal.owner, consumerId: principal.name };
  if (!INSTANCE.test(instance)) {
    throw new ValidationError('Invalid MiniQueue-Instance header', [
      { field: 'MiniQueue-Instance', message: 'must be 1 to 100 characters of A-Z, a-z, 0-9, . _ : / -' },
    ]);
  }
  return { holder: `${principal.owner}/${instance}`, consumerId: `${principal.name}/${instance}` };
}

/** Who is settling a message, and on which queues they may. */
export function holderOf(request: Request): Holder {
  const queues = consumableQueues(principalOf(request));
  if (queues !== null && queues.length === 0) {
    throw new ForbiddenError('scope_required', 'Settling messages needs a consume scope');
  }
  return { ...consumerOf(request), queues };
}
