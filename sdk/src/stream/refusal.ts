import { delayBeforeRetry, isRetryableRefusal, type RetryPolicy } from '../http/retryPolicy.js';
import type { ErrorFields } from './frames.js';

/** A refusal's `retry_after_seconds` (what HTTP says in Retry-After), in milliseconds. */
export function retryAfterMsOf(body: ErrorFields): number | null {
  return typeof body.retry_after_seconds === 'number' ? body.retry_after_seconds * 1000 : null;
}

/**
 * How long to wait before sending a refused frame again, or null when the refusal is final: HTTP's
 * retry rules (429 and 5xx only, not `queue_full`; `attempts` so far and `elapsedMs` since the
 * first within the policy; `retry_after_seconds` first).
 */
export function retryDelayOf(policy: RetryPolicy, attempts: number, body: ErrorFields, random?: () => number, elapsedMs = 0): number | null {
  if (!isRetryableRefusal(body.status, body.code)) return null;
  return delayBeforeRetry(policy, attempts, retryAfterMsOf(body), random, elapsedMs);
}
