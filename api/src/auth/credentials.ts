import type { Pool } from '../db/pool.js';
import { clientFindActiveByKeyHash, clientTouch } from '../db/queries/client.js';
import { API_KEY_PREFIX, hashSecret } from './apiKeys.js';
import type { Principal } from './principal.js';
import { SESSION_PREFIX } from './sessions.js';

/** Dashboard sessions are looked up on every request (see sessions.ts), never cached here. */
export type SessionResolver = (tokenHash: Buffer) => Promise<Principal | null>;

/** A cached principal is re-read at the latest after this, even if no invalidation arrived. */
const CACHE_TTL_MS = 5 * 60_000;
/** last_used_at is written at most this often per key. */
const TOUCH_INTERVAL_MS = 60_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  principal: Principal;
  cachedAt: number;
  touchedAt: number;
}

/**
 * Turns a bearer credential into a principal. API keys are cached by hash, so a known key costs
 * no database round trip; `invalidate()` is called on every instance when any client changes
 * (NOTIFY miniqueue_auth), and when the notification connection was lost.
 */
export class CredentialResolver {
  private readonly cache = new Map<string, Entry>();
  private generation = 0;

  constructor(
    private readonly pool: Pool,
    private readonly onTouchError: (error: unknown) => void = () => undefined,
    private readonly resolveSession: SessionResolver = async () => null,
  ) {}

  async resolve(token: string): Promise<Principal | null> {
    if (token.startsWith(API_KEY_PREFIX)) return this.resolveHash('client', hashSecret(token));
    if (token.startsWith(SESSION_PREFIX)) return this.resolveHash('session', hashSecret(token));
    return null;
  }

  /**
   * The same, from the hash of the credential (what a request keeps of it): asked again of a
   * credential a long poll waits with, when it may have changed since the request was let in.
   */
  resolveHash(kind: Principal['kind'], hash: Buffer): Promise<Principal | null> {
    return kind === 'client' ? this.resolveApiKey(hash) : this.resolveSession(hash);
  }

  invalidate(): void {
    this.generation += 1;
    this.cache.clear();
  }

  private async resolveApiKey(hash: Buffer): Promise<Principal | null> {
    const cacheKey = hash.toString('base64');
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && now - cached.cachedAt < CACHE_TTL_MS) {
      this.touch(cached, now);
      return cached.principal;
    }
    const generation = this.generation;
    const row = await clientFindActiveByKeyHash(this.pool, hash);
    if (!row) return null;
    const principal: Principal = {
      name: row.name,
      kind: 'client',
      scopes: row.scopes,
      owner: `client:${row.id}`,
      credentialId: row.id,
    };
    // An invalidation that arrived while we were reading may concern this very key: don't cache.
    if (generation === this.generation) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      const entry = { principal, cachedAt: now, touchedAt: 0 };
      this.cache.set(cacheKey, entry);
      this.touch(entry, now);
    }
    return principal;
  }

  private touch(entry: Entry, now: number): void {
    if (now - entry.touchedAt < TOUCH_INTERVAL_MS) return;
    entry.touchedAt = now;
    clientTouch(this.pool, entry.principal.credentialId).catch(this.onTouchError);
  }
}
