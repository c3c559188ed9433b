import { ConnectionError, RequestTimeoutError, type MiniQueueError } from '../errors.js';
import type { BufferedResponse } from './bufferedResponse.js';
import { errorFromResponse } from './responseError.js';
import { retryAfterMs } from './retryAfter.js';
import { delayBeforeRetry, RETRYABLE_STATUSES, type RetryPolicy } from './retryPolicy.js';
import { AttemptTimedOut, type Send } from './send.js';
import { sleep } from './signals.js';

export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface AttemptSettings {
  send: Send;
  retry: RetryPolicy;
  /** Limit for one attempt, from sending the request to the end of the response body. */
  timeoutMs: number;
  /** The caller's signal: aborting it ends the request and every retry at once. */
  signal?: AbortSignal;
  random?: () => number;
}

type Outcome = { response: BufferedResponse; error?: undefined } | { error: MiniQueueError; response?: undefined };

/**
 * Sends a request, retrying network failures, timeouts and 429/5xx with backoff (honouring
 * `Retry-After`), and turns every final non-2xx response into a typed MiniQueueError. The same
 * request (headers included, so the same Idempotency-Key) is sent on every attempt.
 */
export async function sendWithRetries(settings: AttemptSettings, url: string, init: RequestInit): Promise<BufferedResponse> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await attemptOnce(settings, url, init, attempt);
    if (outcome.response?.ok) return outcome.response;
    const retryable = outcome.error !== undefined || RETRYABLE_STATUSES.has(outcome.response.status);
    const retryAfter = outcome.response ? retryAfterMs(outcome.response.headers.get('retry-after')) : null;
    const delay = retryable ? delayBeforeRetry(settings.retry, attempt, retryAfter, settings.random) : null;
    if (delay === null) throw await finalError(outcome, attempt);
    await sleep(delay, settings.signal);
  }
}

async function attemptOnce(settings: AttemptSettings, url: string, init: RequestInit, attempt: number): Promise<Outcome> {
  try {
    return { response: await settings.send(url, init, settings.timeoutMs, settings.signal) };
  } catch (error) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    if (error instanceof AttemptTimedOut) {
      return { error: new RequestTimeoutError({ status: 0, message: error.message, cause: error, attempts: attempt }) };
    }
    const reason = error instanceof Error ? error.message : String(error);
    return { error: new ConnectionError({ status: 0, message: `Request failed: ${reason}`, cause: error, attempts: attempt }) };
  }
}

async function finalError(outcome: Outcome, attempts: number): Promise<MiniQueueError> {
  return outcome.response ? errorFromResponse(outcome.response, attempts) : outcome.error;
}
