import { ConnectionError, RequestTimeoutError, type MiniQueueError } from '../errors.js';
import type { BufferedResponse } from './bufferedResponse.js';
import type { BrokerEndpoints } from './endpoints.js';
import { errorFromResponse } from './responseError.js';
import { retryAfterMs } from './retryAfter.js';
import { delayBeforeRetry, isRetryableRefusal, type RetryPolicy } from './retryPolicy.js';
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
  /**
   * The broker's URLs, when the client has several: each attempt goes to the current one (the
   * request's URL is made on the first), and one that looks unreachable moves the client to the next.
   */
  endpoints?: BrokerEndpoints;
}

type Outcome = { response: BufferedResponse; error?: undefined } | { error: MiniQueueError; response?: undefined };

/** Answers that say this broker instance is away (not the request's fault): try another URL. */
const UNREACHABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/**
 * Sends a request, retrying network failures, timeouts and 429/5xx with backoff (honouring
 * `Retry-After`) for as long as the retry policy allows, and turns every final non-2xx response
 * into a typed MiniQueueError. The same request (headers included, so the same Idempotency-Key)
 * is sent on every attempt. With several broker URLs, an attempt that finds its broker away is
 * tried on the next URL at once; the backoff starts once every URL failed in turn.
 */
export async function sendWithRetries(settings: AttemptSettings, url: string, init: RequestInit): Promise<BufferedResponse> {
  const started = Date.now();
  const endpoints = settings.endpoints?.several && url.startsWith(settings.endpoints.urls[0]) ? settings.endpoints : undefined;
  const path = endpoints ? url.slice(endpoints.urls[0].length) : '';
  const triedInTurn = new Set<string>();
  for (let attempt = 1; ; attempt++) {
    const base = endpoints?.current();
    const outcome = await attemptOnce(settings, base === undefined ? url : base + path, init, attempt);
    if (outcome.response?.ok) return outcome.response;
    const retryable = outcome.error !== undefined || (await mayRetry(outcome.response));
    const away = outcome.error !== undefined || UNREACHABLE_STATUSES.has(outcome.response.status);
    const retryAfter = outcome.response ? retryAfterMs(outcome.response.headers.get('retry-after')) : null;
    let delay = retryable ? delayBeforeRetry(settings.retry, attempt, retryAfter, settings.random, Date.now() - started) : null;
    if (delay === null) throw await finalError(outcome, attempt);
    if (base !== undefined && away) {
      triedInTurn.add(base);
      endpoints?.failed(base);
      const next = endpoints?.current() as string;
      if (triedInTurn.has(next)) triedInTurn.clear();
      else delay = 0; // another instance, not tried yet in this turn: no reason to wait
    }
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

/** A 429 or 5xx answer, unless its code says retrying will not help soon (see isRetryableRefusal). */
async function mayRetry(response: BufferedResponse): Promise<boolean> {
  if (!isRetryableRefusal(response.status, undefined)) return false;
  if (response.status !== 429) return true;
  const body = await response.json().catch(() => null);
  return isRetryableRefusal(response.status, (body as { code?: unknown } | null)?.code);
}

async function finalError(outcome: Outcome, attempts: number): Promise<MiniQueueError> {
  return outcome.response ? errorFromResponse(outcome.response, attempts) : outcome.error;
}
