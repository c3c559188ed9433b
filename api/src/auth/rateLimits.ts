import type { Config } from '../config.js';
import { TokenBuckets } from './tokenBuckets.js';
import type { Principal } from './principal.js';

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

  /**
   * Before a handshake's credential is looked up: takes one of the address's failed handshakes,
   * as if this one would fail, so that handshakes in flight at once cannot all reach the database
   * (checking first and charging after the lookup let 60 concurrent ones through a budget of 5).
   * Answers the seconds to wait, 0 to go ahead; a handshake that did not fail on its credential
   * gives its token back with `handshakeNotFailed`. The cost: at most `burst` handshakes from one
   * address may be looked up at the same moment, good ones included.
   */
  reserveFailedHandshake(address: string): number {
    return this.failedHandshakes?.take(address) ?? 0;
  }

  /** The handshake that reserved a failure passed its credential check (or failed for another reason). */
  handshakeNotFailed(address: string): void {
    this.failedHandshakes?.giveBack(address);
  }
}
