import type { RouteOptions } from '@hapi/hapi';
import { ForbiddenError, ValidationError } from '../errors.js';
import type { Principal } from '../auth/principal.js';
import { consumableQueues, hasScope } from '../auth/scopes.js';
import type { Holder } from '../broker/settle.js';
import type { ReqRef, Request } from '@hapi/hapi';
import { header } from './hapi-augment.js';

export const AUTH_STRATEGY = 'miniqueue';

/**
 * The access rule of a route, written as in openapi.yaml's x-required-scope:
 * `none`, `any`, `session`, `admin`, `view`, `metrics`, `publish:{topic}`, `consume:{queue}`,
 * `consume:{message.queue}` (checked against the message's queue when it is settled),
 * `view|consume:{message.queue}` (either; checked once the message is found).
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
    case 'view|consume:{message.queue}':
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

export const principalOf = <Refs extends ReqRef>(request: Request<Refs>): Principal => request.auth.credentials;

const INSTANCE = /^[A-Za-z0-9._:/-]{1,100}$/;

/**
 * Consumer identity: who holds a lease (the credential's owner: a client's id, or a person, so a
 * revoked client whose name is registered again holds nothing of the old one's) and the same as
 * people read it (the client's name), each plus the MiniQueue-Instance header when given.
 */
export function consumerOf<Refs extends ReqRef>(request: Request<Refs>): { holder: string; consumerId: string } {
  return consumerIdentity(principalOf(request), header(request, 'miniqueue-instance'), 'MiniQueue-Instance');
}

/** The same identity for any transport: `field` names where the instance came from, for the 400. */
export function consumerIdentity(principal: Principal, instance: string | undefined, field: string): { holder: string; consumerId: string } {
  if (instance === undefined) return { holder: principal.owner, consumerId: principal.name };
  if (!INSTANCE.test(instance)) {
    throw new ValidationError(`Invalid ${field}`, [{ field, message: 'must be 1 to 100 characters of A-Z, a-z, 0-9, . _ : / -' }]);
  }
  return { holder: `${principal.owner}/${instance}`, consumerId: `${principal.name}/${instance}` };
}

/** Who is settling a message, and on which queues they may. */
export function holderOf<Refs extends ReqRef>(request: Request<Refs>): Holder {
  const queues = consumableQueues(principalOf(request));
  if (queues !== null && queues.length === 0) {
    throw new ForbiddenError('scope_required', 'Settling messages needs a consume scope');
  }
  return { ...consumerOf(request), queues };
}

/**
 * The queues whose messages the caller may read one by one: every queue with `view` (or admin),
 * else the queues it may consume from. Without either it is refused before anything is looked up,
 * as settling is without a consume scope, so the refusal says nothing about the message.
 */
export function readableQueuesOf<Refs extends ReqRef>(request: Request<Refs>): string[] | null {
  const principal = principalOf(request);
  if (hasScope(principal, 'view')) return null;
  const queues = consumableQueues(principal);
  if (queues !== null && queues.length === 0) {
    throw new ForbiddenError('scope_required', 'Reading messages needs the scope view, or consume:<queue> for their queue', 'view');
  }
  return queues;
}
