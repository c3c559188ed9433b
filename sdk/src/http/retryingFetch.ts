import { ConnectionError, RequestTimeoutError, type MiniQueueError } from '../errors.js';
import { errorFromResponse } from './responseError.js';
import { retryAfterMs } from './retryAfter.js';
import { delayBeforeRetry, RETRYABLE_STATUSES, type RetryPolicy } from './retryPolicy.js';
import { linkSignals, sleep } from './signals.js';

export type FetchFunction = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface AttemptSettings {
  fetch: FetchFunction;
  retry: RetryPolicy;
  /** Limit for one attempt, from sending the request to the end of the response body. */
  timeoutMs: number;
  /** The caller's signal: aborting it ends the request and every retry at once. */
  signal?: AbortSignal;
  random?: () => number;
}

type Outcome = { response: Response; error?: undefined } | { error: MiniQueueError; response?: undefined };

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A fetch that retries network failures, timeouts and 429/5xx with backoff (honouring
 * `Retry-After`), and turns every final non-2xx response into a typed MiniQueueError. The same
 * request (headers included, so the same Idempotency-Key) is sent on every attempt.
 */
export function retryingFetch(settings: AttemptSettings): FetchFunction {
  return async (input, init) => {
    for (let attempt = 1; ; attempt++) {
      const outcome = await attemptOnce(settings, input, init, attempt);
      if (outcome.response?.ok) return outcome.response;
      const retryable = outcome.error !== undefined || RETRYABLE_STATUSES.has(outcome.response.status);
      const retryAfter = outcome.response ? retryAfterMs(outcome.response.headers.get('retry-after')) : null;
      const delay = retryable ? delayBeforeRetry(settings.retry, attempt, retryAfter, settings.random) : null;
      if (delay === null) throw await finalError(outcome, attempt);
      await sleep(delay, settings.signal);
    }
  };
}

async function attemptOnce(settings: AttemptSettings, input: RequestInfo | URL, init: RequestInit | undefined, attempt: number): Promise<Outcome> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), settings.timeoutMs);
  const linked = linkSignals(settings.signal, init?.signal ?? undefined, timeout.signal);
  try {
    const response = await settings.fetch(input, { ...init, signal: linked.signal });
    return { response: await buffered(response) };
  } catch (error) {
    if (settings.signal?.aborted) throw settings.signal.reason;
    if (init?.signal?.aborted) throw init.signal.reason;
    if (timeout.signal.aborted) {
      return { error: new RequestTimeoutError({ status: 0, message: `No response within ${settings.timeoutMs} ms`, cause: error, attempts: attempt }) };
    }
    const reason = error instanceof Error ? error.message : String(error);
    return { error: new ConnectionError({ status: 0, message: `Request failed: ${reason}`, cause: error, attempts: attempt }) };
  } finally {
    clearTimeout(timer);
    linked.dispose();
  }
}

/** Reads the whole body inside the attempt, so a connection cut mid-body is retried like any other. */
async function buffered(response: Response): Promise<Response> {
  const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

async function finalError(outcome: Outcome, attempts: number): Promise<MiniQueueError> {
  return outcome.response ? errorFromResponse(outcome.response, attempts) : outcome.error;
}
