import type { Request, ResponseToolkit, Server } from '@hapi/hapi';
import type { Config } from '../config.js';
import { RateLimitedError } from '../errors.js';
import { TokenBuckets } from '../auth/tokenBuckets.js';
import type { Principal } from '../auth/principal.js';

/**
 * The token buckets of one instance, shared by HTTP requests and WebSocket handshakes: a
 * credential's buckets (API key or session), per-address buckets for routes that need no
 * credential, and per-address buckets for failed WebSocket handshakes (each costs a lookup, and
 * bad credentials are otherwise free to try). Each method answers the whole seconds to wait: 0
 * means go ahead (always, when rate limiting is off). Limits are per instance: N instances behind a
 * load balancer allow up to N times the rate.
 */
export class RateLimits {
  private readonly credentials?: TokenBuckets;
  private readonly addresses?: TokenBuckets;
  private readonly failedHandshakes?: TokenBuckets;

  constructor(limits: Config['rateLimit']) {
    if (!limits.enabled) return;
    this.credentials = new TokenBuckets(limits.perSecond, limits.burst);
    this.addresses = new TokenBuckets(limits.anonymousPerSecond, limits.anonymousBurst);
    this.failedHandshakes = new TokenBuckets(limits.anonymousPerSecond, limits.anonymousBurst);
  }

  get enabled(): boolean {
    return this.credentials !== undefined;
  }

  /** A request or handshake made with this credential. */
  takeCredential(principal: Principal): number {
    return this.credentials?.take(`${principal.kind}:${principal.credentialId}`) ?? 0;
  }

  /** A request from this address to a route that needs no credential. */
  takeAddress(address: string): number {
    return this.addresses?.take(address) ?? 0;
  }

  /** Whether this address may try a handshake: it has failed handshakes left. Takes nothing. */
  handshakeFailuresWait(address: string): number {
    return this.failedHandshakes?.wait(address) ?? 0;
  }

  /** A handshake from this address was refused for its credential. */
  noteFailedHandshake(address: string): void {
    this.failedHandshakes?.take(address);
  }
}

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
