export interface RetryOptions {
  /** Attempts in all, the first one included; 1 turns retries off. Default 4. */
  attempts?: number;
  /** Ceiling of the first backoff in milliseconds; it doubles on every retry. Default 200. */
  baseDelayMs?: number;
  /** Highest backoff in milliseconds. Default 5000. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` (milliseconds) the SDK waits out by itself; a longer one ends the retries
   * and the error carries `retryAfterMs` for the caller to decide. Default 60000.
   */
  maxRetryAfterMs?: number;
}

export type RetryPolicy = Required<RetryOptions>;

export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: 60_000,
};

/** Statuses worth repeating unchanged: rate limiting and server-side failures. Never other 4xx. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

export function retryPolicy(...layers: Array<RetryOptions | undefined>): RetryPolicy {
  const merged = Object.assign({}, defaultRetryPolicy, ...layers.map(withoutUndefined)) as RetryPolicy;
  merged.attempts = Math.max(1, Math.floor(merged.attempts));
  return merged;
}

function withoutUndefined(options: RetryOptions | undefined): RetryOptions {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined));
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(retry-1))). */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * How long to wait before attempt `attempt + 1`, or null when there is none: attempts used up, or
 * a `Retry-After` longer than the policy accepts. A server's `Retry-After` replaces the backoff.
 */
export function delayBeforeRetry(policy: RetryPolicy, attempt: number, retryAfter: number | null, random?: () => number): number | null {
  if (attempt >= policy.attempts) return null;
  if (retryAfter !== null) return retryAfter <= policy.maxRetryAfterMs ? retryAfter : null;
  return backoffDelay(policy, attempt, random);
}
