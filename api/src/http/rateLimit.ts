import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Config } from '../config.js';
import { RateLimitedError } from '../errors.js';
import { TokenBuckets } from '../auth/tokenBuckets.js';
import type { Principal } from '../auth/principal.js';

/**
 * Routes anyone may call (sign-in, health, docs) are limited per client address. Unknown paths and
 * CORS preflights never reach these extension points; they cost no database work either.
 */
const isPublic = (request: Request): boolean => {
  const scope = request.route.settings.plugins?.miniqueue?.scope;
  return scope === undefined || scope === 'none';
};

/**
 * Per-credential token buckets for authenticated calls, per-address buckets for public routes.
 * Limits are per instance: N instances behind a load balancer allow up to N times the rate.
 */
export function registerRateLimits(server: Server, config: Config): void {
  const limits = config.rateLimit;
  if (!limits.enabled) return;
  const credentials = new TokenBuckets(limits.perSecond, limits.burst);
  const addresses = new TokenBuckets(limits.anonymousPerSecond, limits.anonymousBurst);

  server.ext('onPreAuth', (request: Request, h: ResponseToolkit) => {
    // The dashboard's static files cost no database work; a page load fetches several at once.
    if (!isPublic(request) || request.route.settings.tags?.includes('static')) return h.continue;
    const wait = addresses.take(request.info.remoteAddress);
    if (wait > 0) throw new RateLimitedError('Too many requests from this address', wait);
    return h.continue;
  });

  // After authentication and before the scope check, so a credential's refused calls count too.
  server.ext('onCredentials', (request: Request, h: ResponseToolkit) => {
    if (isPublic(request) || !request.auth.credentials) return h.continue;
    const principal = request.auth.credentials as unknown as Principal;
    const wait = credentials.take(`${principal.kind}:${principal.credentialId}`);
    if (wait > 0) throw new RateLimitedError('Too many requests with this credential', wait);
    return h.continue;
  });
}
