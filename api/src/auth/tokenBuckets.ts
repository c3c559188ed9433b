/**
 * Token buckets, one per key (a credential, or a client address), in this process's memory: each
 * instance limits what it serves. A bucket holds up to `burst` tokens, refills at `perSecond`, and a
 * request takes one.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private lastPrune = 0;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes a token for `key`: 0 when allowed, else the whole seconds until one is available. */
  take(key: string): number {
    const bucket = this.refilled(key);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return this.secondsUntilToken(bucket.tokens);
  }

  /** Returns a token taken for `key` that turned out not to be owed (never above the burst). */
  giveBack(key: string): void {
    const bucket = this.refilled(key);
    bucket.tokens = Math.min(this.burst, bucket.tokens + 1);
  }

  /** What take() would answer, without taking anything. */
  wait(key: string): number {
    const { tokens } = this.refilled(key);
    return tokens >= 1 ? 0 : this.secondsUntilToken(tokens);
  }

  private refilled(key: string): { tokens: number; at: number } {
    const now = this.now();
    this.prune(now);
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    return bucket;
  }

  private secondsUntilToken(tokens: number): number {
    return Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
  }

  get size(): number {
    return this.buckets.size;
  }

  /** A bucket that has refilled is the same as no bucket: forget it, so idle keys cost no memory. */
  private prune(now: number): void {
    if (now - this.lastPrune < 60_000 && this.buckets.size < this.maxKeys) return;
    this.lastPrune = now;
    const fullAfterMs = (this.burst / this.perSecond) * 1000;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.at >= fullAfterMs) this.buckets.delete(key);
    }
    // Still too many live keys (a flood of addresses): start over rather than grow without bound.
    if (this.buckets.size >= this.maxKeys) this.buckets.clear();
  }
}
