import type { BufferedResponse } from './bufferedResponse.js';

/**
 * One attempt of a request: resolves with the whole response (body read), rejects with the
 * signal's reason when it aborts, with AttemptTimedOut when `timeoutMs` passes first, and with
 * the network's error otherwise. Retries, backoff and typed errors are the caller's.
 */
export type Send = (url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined) => Promise<BufferedResponse>;

/** The attempt took longer than its limit. */
export class AttemptTimedOut extends Error {
  constructor(readonly timeoutMs: number) {
    super(`No response within ${timeoutMs} ms`);
  }
}

/** Statuses whose response has no body by definition. */
export const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 204, 205, 304]);
