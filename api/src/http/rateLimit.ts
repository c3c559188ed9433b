import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import { RateLimitedError } from '../errors.js';
import type { RateLimits } from '../auth/rateLimits.js';

/**
 * Routes anyone may call (sign-in, health, docs) are limited per client address. Unknown paths and
 * CORS preflights never reach these extension points; they cost no database work either.
 */
const isPublic = (request: Request): boolean => {
  const scope = request.route.settings.plugins?.miniqueue?.scope;
  return scope === undefined || scope === 'none';
};

/** Per-credential limits for authenticated calls, per-address limits for public routes. */
export function registerRateLimits(server: Server, limits: RateLimits): void {
  if (!limits.enabled) return;

  server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
    // The dashboard's static files cost no database work; a page load fetches several at once.
    if (!isPublic(request) || request.route.settings.tags?.includes('static')) return h.continue;
    const wait = limits.takeAddress(request.info.remoteAddress);
    if (wait > 0) throw new RateLimitedError('Too many requests from this address', wait);
    return h.continue;
  });

  // After authentication and before the scope check, so a credential's refused calls count too.
  server.ext('onCredentials', (request: Request, h: ResponseToolkit) => {
    if (isPublic(request) || !request.auth.credentials) return h.continue;
    const wait = limits.takeCredential(request.auth.credentials);
    if (wait > 0) throw new RateLimitedError('Too many requests with this credential', wait);
    return h.continue;
  });
}
