import { BufferedResponse } from './bufferedResponse.js';
import type { FetchFunction } from './retryingFetch.js';
import { AttemptTimedOut, NULL_BODY_STATUSES, type Send } from './send.js';
import { linkSignals } from './signals.js';

/**
 * Attempts over a fetch (the global one in browsers, or the one given in the options). fetch ends
 * a request only through a signal, so each attempt has one for its timeout, linked to the caller's.
 */
export function fetchSend(fetch: FetchFunction): Send {
  return async (url, init, timeoutMs, signal) => {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new AttemptTimedOut(timeoutMs)), timeoutMs);
    const linked = signal ? linkSignals(signal, timeout.signal) : { signal: timeout.signal, dispose: () => undefined };
    try {
      const response = await fetch(url, { ...init, signal: linked.signal });
      const body = NULL_BODY_STATUSES.has(response.status) ? null : new Uint8Array(await response.arrayBuffer());
      return new BufferedResponse(response.status, response.statusText, response.headers, body);
    } catch (error) {
      if (timeout.signal.aborted && !signal?.aborted) throw timeout.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      linked.dispose();
    }
  };
}
