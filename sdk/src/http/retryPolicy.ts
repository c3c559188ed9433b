export interface RetryOptions {
  /**
   * Attempts in all, the first one included; 1 turns retries off. Default: no limit of its own,
   * so `maxElapsedMs` bounds the retries.
   */
  attempts?: number;
  /**
   * How long a call keeps retrying, in milliseconds from its first attempt: no retry starts later
   * than this (a backoff or `Retry-After` that would end later ends the retries). Default 60000,
   * so a publish rides through a broker restart or a failover. Over the stream, a call waiting
   * for the stream to come back fails at the first failed reconnect after this.
   */
  maxElapsedMs?: number;
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
  attempts: Number.POSITIVE_INFINITY,
  maxElapsedMs: 60_000,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: 60_000,
};

/** Statuses worth repeating unchanged: rate limiting and server-side failures. Never other 4xx. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Codes of a retryable status that the SDK still hands back at once: `queue_full` (429) is a
 * bounded queue's backpressure, for the producer to see rather than the SDK to wait out for a
 * minute; the error carries the broker's `retryAfterMs` for a caller that wants to try again.
 */
const FINAL_CODES: ReadonlySet<string> = new Set(['queue_full']);

/** Whether a refusal (status and the contract's error code) may succeed when sent again unchanged. */
export function isRetryableRefusal(status: number, code: unknown): boolean {
  return RETRYABLE_STATUSES.has(status) && !(typeof code === 'string' && FINAL_CODES.has(code));
}

export function retryPolicy(...layers: Array<RetryOptions | undefined>): RetryPolicy {
  const merged = Object.assign({}, defaultRetryPolicy, ...layers.map(withoutUndefined)) as RetryPolicy;
  merged.attempts = Math.max(1, Math.floor(merged.attempts));
  merged.maxElapsedMs = Math.max(0, merged.maxElapsedMs);
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
 * How long to wait before attempt `attempt + 1`, or null when there is none: attempts used up, a
 * `Retry-After` longer than the policy accepts, or a retry that would start more than
 * `maxElapsedMs` after the first attempt (`elapsedMs` ago). A server's `Retry-After` replaces the backoff.
 */
export function delayBeforeRetry(policy: RetryPolicy, attempt: number, retryAfter: number | null, random?: () => number, elapsedMs = 0): number | null {
  if (attempt >= policy.attempts) return null;
  if (retryAfter !== null && retryAfter > policy.maxRetryAfterMs) return null;
  const delay = retryAfter ?? backoffDelay(policy, attempt, random);
  return elapsedMs + delay <= policy.maxElapsedMs ? delay : null;
}
